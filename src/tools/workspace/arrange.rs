//! Arranging what exists: `select_window`, `select_pane`, `select_layout`,
//! `resize_pane`, `resize_window`, `swap_pane`.
//!
//! Each reads the state it changes in the same command list as the change, before and
//! after (`readback::read_change_read`), so the reply's "previous" values are what the
//! change replaced (an agent can undo with them) and its other values are what tmux
//! settled on. Nothing here switches a client or moves focus beyond what the tool names.

use crate::generated::types::{
    ResizePaneInput, ResizePaneOutput, ResizeWindowInput, ResizeWindowOutput, SelectLayoutInput, SelectLayoutOutput,
    SelectPaneInput, SelectPaneOutput, SelectWindowInput, SelectWindowOutput, SwapPaneInput, SwapPaneOutput,
};
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::limits::ARRANGE_MAX_CELLS;
use crate::runtime::error::ToolError;
use crate::tmux::format::Record;
use crate::tmux::{PaneId, ReadCommand, ReadVerb, WindowId};
use crate::tools::args;
use crate::tools::workspace::layout::{self, WindowShape};
use crate::tools::workspace::readback::{display, parse, read_change_read, record_of, typed};

fn cells(record: &Record<'_>, name: &str) -> Result<u64, ToolError> {
    u64::try_from(record.int(name)?).map_err(|_| ToolError::internal(format!("{name} is negative")))
}

/// A window, its session and the session's current window.
const WINDOW_PLACE: [&str; 3] = ["#{window_id}", "#{session_id}", "#{W:#{?window_active,#{window_id},}}"];
const WINDOW_PLACE_NAMES: [&str; 3] = ["id", "session", "current"];

/// Makes a window its session's current window.
///
/// # Errors
/// A missing window, or tmux failing.
pub async fn select_window(gate: &ChangeGate<'_>, input: SelectWindowInput) -> Result<SelectWindowOutput, ToolError> {
    let SelectWindowInput { window_id } = input;
    let window = args::window_id("/window_id", &window_id)?;
    let format = record_of(&WINDOW_PLACE);
    let select = ChangeCommand::new(ChangeVerb::SelectWindow)
        .arg("-t")
        .arg(window.to_string());
    let around = read_change_read(gate, &[display(window, &format)], [select]).await?;
    let before = parse(window, &WINDOW_PLACE_NAMES, around.before(0)?)?;
    let after = parse(window, &WINDOW_PLACE_NAMES, around.after(0)?)?;
    Ok(SelectWindowOutput {
        window_id: typed(after.text("current")?)?,
        session_id: typed(after.text("session")?)?,
        previous_window_id: typed(before.text("current")?)?,
    })
}

/// A pane, its window and the window's active pane.
const PANE_PLACE: [&str; 3] = ["#{pane_id}", "#{window_id}", "#{P:#{?pane_active,#{pane_id},}}"];
const PANE_PLACE_NAMES: [&str; 3] = ["id", "window", "active"];

/// Makes a pane its window's active pane, keeping a zoomed window zoomed.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn select_pane(gate: &ChangeGate<'_>, input: SelectPaneInput) -> Result<SelectPaneOutput, ToolError> {
    let SelectPaneInput { pane_id } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let format = record_of(&PANE_PLACE);
    // -Z: a zoomed window stays zoomed (on this pane) rather than unzooming.
    let select = ChangeCommand::new(ChangeVerb::SelectPane)
        .arg("-Z")
        .arg("-t")
        .arg(pane.to_string());
    let around = read_change_read(gate, &[display(pane, &format)], [select]).await?;
    let before = parse(pane, &PANE_PLACE_NAMES, around.before(0)?)?;
    let after = parse(pane, &PANE_PLACE_NAMES, around.after(0)?)?;
    Ok(SelectPaneOutput {
        pane_id: typed(after.text("active")?)?,
        window_id: typed(after.text("window")?)?,
        previous_pane_id: typed(before.text("active")?)?,
    })
}

/// What `select_layout` checks a layout against.
const WINDOW_SHAPE: [&str; 6] = [
    "#{window_id}",
    "#{window_width}",
    "#{window_height}",
    "#{window_layout}",
    "#{version}",
    "#{P:#{pane_id} }",
];
const WINDOW_SHAPE_NAMES: [&str; 6] = ["id", "width", "height", "layout", "version", "panes"];

fn window_shape(record: &Record<'_>) -> Result<WindowShape, ToolError> {
    let number = |name: &str| {
        u32::try_from(record.int(name)?).map_err(|_| ToolError::internal(format!("window {name} out of range")))
    };
    let panes = record
        .text("panes")?
        .split_whitespace()
        .map(|id| {
            id.parse::<PaneId>()
                .map(|p| p.0)
                .map_err(|_| ToolError::internal("tmux listed a pane without a pane id"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(WindowShape {
        width: number("width")?,
        height: number("height")?,
        panes,
    })
}

/// Applies a preset or a checked layout string (see `tools::layout`).
///
/// # Errors
/// A layout that is neither (nothing is sent), a missing window, or tmux failing.
pub async fn select_layout(gate: &ChangeGate<'_>, input: SelectLayoutInput) -> Result<SelectLayoutOutput, ToolError> {
    let SelectLayoutInput { window_id, layout } = input;
    let window = args::window_id("/window_id", &window_id)?;
    let format = record_of(&WINDOW_SHAPE);
    let read = gate.run(display(window, &format)).await?;
    let read = String::from_utf8_lossy(&read);
    let record = parse(window, &WINDOW_SHAPE_NAMES, &read)?;
    let checked = layout::check(&layout, record.text("version")?, &window_shape(&record)?)
        .map_err(|rule| ToolError::invalid_argument("/layout", rule))?;
    let select = ChangeCommand::new(ChangeVerb::SelectLayout)
        .arg("-t")
        .arg(window.to_string())
        .arg(checked.as_str());
    let around = read_change_read(gate, &[display(window, &format)], [select]).await?;
    let before = parse(window, &WINDOW_SHAPE_NAMES, around.before(0)?)?;
    let after = parse(window, &WINDOW_SHAPE_NAMES, around.after(0)?)?;
    Ok(SelectLayoutOutput {
        window_id: typed(window)?,
        layout: typed(after.text("layout")?)?,
        previous_layout: typed(before.text("layout")?)?,
    })
}

/// What `resize_pane` reports of a pane.
const PANE_SIZE: [&str; 5] = [
    "#{pane_id}",
    "#{pane_width}",
    "#{pane_height}",
    "#{window_zoomed_flag}",
    "#{window_layout}",
];
const PANE_SIZE_NAMES: [&str; 5] = ["id", "width", "height", "zoomed", "layout"];

/// The size to ask for on one axis: `absolute`, or the current size moved by `by`.
fn target_size(field: &str, absolute: Option<u64>, by: Option<i64>, current: u64) -> Result<Option<u64>, ToolError> {
    match (absolute, by) {
        (Some(_), Some(_)) => Err(ToolError::invalid_argument(
            field,
            "give a size or a change of it, not both",
        )),
        (Some(size), None) => Ok(Some(size)),
        (None, Some(by)) => {
            let current = i64::try_from(current).unwrap_or(i64::MAX);
            let size = current.saturating_add(by).clamp(1, ARRANGE_MAX_CELLS);
            Ok(Some(u64::try_from(size).unwrap_or(1)))
        }
        (None, None) => Ok(None),
    }
}

/// Resizes a pane, or sets its window's zoom on it without toggling.
///
/// # Errors
/// No change asked for, a size with zoom, a missing pane, or tmux failing.
pub async fn resize_pane(gate: &ChangeGate<'_>, input: ResizePaneInput) -> Result<ResizePaneOutput, ToolError> {
    let ResizePaneInput {
        pane_id,
        width,
        height,
        width_by,
        height_by,
        zoom,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let sized = width.is_some() || height.is_some() || width_by.is_some() || height_by.is_some();
    let format = record_of(&PANE_SIZE);
    let change: Vec<ChangeCommand> = match zoom {
        Some(_) if sized => {
            return Err(ToolError::invalid_argument(
                "/zoom",
                "zoom is set alone, without width, height, width_by or height_by",
            ))
        }
        Some(zoom) => ChangeGate::set_zoom_commands(pane, zoom),
        None if !sized => {
            return Err(ToolError::invalid_argument(
                "",
                "give width, height, width_by, height_by or zoom",
            ))
        }
        None => {
            let read = gate.run(display(pane, &format)).await?;
            let read = String::from_utf8_lossy(&read);
            let now = parse(pane, &PANE_SIZE_NAMES, &read)?;
            // A zoomed pane shows the window's size; a resize unzooms first, so a change
            // counts from the pane's size under the zoom, as the layout holds it.
            let (width_now, height_now) = match layout::pane_cell_size(now.text("layout")?, pane.0) {
                Some((w, h)) if now.flag("zoomed")? => (u64::from(w), u64::from(h)),
                _ => (cells(&now, "width")?, cells(&now, "height")?),
            };
            let x = target_size("/width_by", width.map(u64::from), width_by, width_now)?;
            let y = target_size("/height_by", height.map(u64::from), height_by, height_now)?;
            let mut resize = ChangeCommand::new(ChangeVerb::ResizePane)
                .arg("-t")
                .arg(pane.to_string());
            if let Some(x) = x {
                resize = resize.arg("-x").arg(x.to_string());
            }
            if let Some(y) = y {
                resize = resize.arg("-y").arg(y.to_string());
            }
            vec![resize]
        }
    };
    let around = read_change_read(gate, &[display(pane, &format)], change).await?;
    let before = parse(pane, &PANE_SIZE_NAMES, around.before(0)?)?;
    let after = parse(pane, &PANE_SIZE_NAMES, around.after(0)?)?;
    Ok(ResizePaneOutput {
        pane_id: typed(pane)?,
        width: cells(&after, "width")?,
        height: cells(&after, "height")?,
        zoomed: after.flag("zoomed")?,
        previous_width: cells(&before, "width")?,
        previous_height: cells(&before, "height")?,
        was_zoomed: before.flag("zoomed")?,
        previous_layout: typed(before.text("layout")?)?,
    })
}

/// What `resize_window` reports of a window.
const WINDOW_SIZE: [&str; 3] = ["#{window_id}", "#{window_width}", "#{window_height}"];
const WINDOW_SIZE_NAMES: [&str; 3] = ["id", "width", "height"];

/// The window's own `window-size` (empty when it inherits the session's).
fn own_window_size(window: WindowId) -> ReadCommand {
    ReadCommand::new(ReadVerb::ShowOptions)
        .arg("-w")
        .arg("-q")
        .arg("-v")
        .arg("-t")
        .arg(window.to_string())
        .arg("window-size")
}

/// Resizes a window (tmux then pins its size: `window-size` manual), or gives its size
/// back to tmux (`reset_size`).
///
/// # Errors
/// No change asked for, a size with `reset_size`, a missing window, or tmux failing.
pub async fn resize_window(gate: &ChangeGate<'_>, input: ResizeWindowInput) -> Result<ResizeWindowOutput, ToolError> {
    let ResizeWindowInput {
        window_id,
        width,
        height,
        reset_size,
    } = input;
    let window = args::window_id("/window_id", &window_id)?;
    let sized = width.is_some() || height.is_some();
    let change = match reset_size {
        Some(true) if sized => {
            return Err(ToolError::invalid_argument(
                "/reset_size",
                "reset_size is given alone, without width or height",
            ))
        }
        Some(true) => ChangeCommand::new(ChangeVerb::SetOption)
            .arg("-w")
            .arg("-u")
            .arg("-t")
            .arg(window.to_string())
            .arg("window-size"),
        _ if !sized => {
            return Err(ToolError::invalid_argument(
                "",
                "give width, height or reset_size: true",
            ))
        }
        _ => {
            let mut resize = ChangeCommand::new(ChangeVerb::ResizeWindow)
                .arg("-t")
                .arg(window.to_string());
            if let Some(width) = width {
                resize = resize.arg("-x").arg(width.to_string());
            }
            if let Some(height) = height {
                resize = resize.arg("-y").arg(height.to_string());
            }
            resize
        }
    };
    let format = record_of(&WINDOW_SIZE);
    let reads = [display(window, &format), own_window_size(window)];
    let around = read_change_read(gate, &reads, [change]).await?;
    let before = parse(window, &WINDOW_SIZE_NAMES, around.before(0)?)?;
    let after = parse(window, &WINDOW_SIZE_NAMES, around.after(0)?)?;
    Ok(ResizeWindowOutput {
        window_id: typed(window)?,
        width: cells(&after, "width")?,
        height: cells(&after, "height")?,
        window_size: typed(around.after(1)?.trim())?,
        previous_width: cells(&before, "width")?,
        previous_height: cells(&before, "height")?,
        previous_window_size: typed(around.before(1)?.trim())?,
    })
}

/// Where a pane is: its window and index there, as `@W.N`.
const PANE_POSITION: [&str; 2] = ["#{pane_id}", "#{window_id}.#{pane_index}"];
const PANE_POSITION_NAMES: [&str; 2] = ["id", "position"];

/// Swaps two panes' places; the active place of each window keeps the focus.
///
/// # Errors
/// The same pane twice, a missing pane, or tmux failing.
pub async fn swap_pane(gate: &ChangeGate<'_>, input: SwapPaneInput) -> Result<SwapPaneOutput, ToolError> {
    let SwapPaneInput { pane_id, with_pane_id } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let with = args::pane_id("/with_pane_id", &with_pane_id)?;
    if pane == with {
        return Err(ToolError::invalid_argument(
            "/with_pane_id",
            "must be another pane than pane_id",
        ));
    }
    let format = record_of(&PANE_POSITION);
    // -d: focus stays in each window's active place; -Z: zoom is kept.
    let swap = ChangeCommand::new(ChangeVerb::SwapPane)
        .arg("-d")
        .arg("-Z")
        .arg("-s")
        .arg(pane.to_string())
        .arg("-t")
        .arg(with.to_string());
    let around = read_change_read(gate, &[display(pane, &format), display(with, &format)], [swap]).await?;
    let position = |target: PaneId, output: &str| -> Result<String, ToolError> {
        Ok(parse(target, &PANE_POSITION_NAMES, output)?
            .text("position")?
            .to_string())
    };
    Ok(SwapPaneOutput {
        pane_id: typed(pane)?,
        with_pane_id: typed(with)?,
        previous_position: typed(position(pane, around.before(0)?)?)?,
        previous_with_position: typed(position(with, around.before(1)?)?)?,
        position: typed(position(pane, around.after(0)?)?)?,
        with_position: typed(position(with, around.after(1)?)?)?,
    })
}
