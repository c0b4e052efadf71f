//! At most `--max-connected-targets` targets connected at once: after a call, the least
//! recently used targets that no call is using are disconnected until the count fits.
//! A disconnected target connects again on its next call, as after any lost connection.

use crate::app::{Fleet, Target};

/// Records the use of `target` and disconnects idle targets beyond the cap.
pub async fn keep_within(fleet: &Fleet, target: &Target) {
    let Some(index) = fleet.targets.iter().position(|t| std::ptr::eq(t, target)) else {
        return;
    };
    let order = fleet.touch(index);
    let mut connected = 0;
    for target in &fleet.targets {
        if target.guard.backend.is_connected().await {
            connected += 1;
        }
    }
    // The target just used goes last, so it is the one kept.
    for least_recent in order.into_iter().filter(|&i| i != index) {
        if connected <= fleet.max_connected {
            break;
        }
        let Some(candidate) = fleet.targets.get(least_recent) else {
            continue;
        };
        if !candidate.is_busy() && candidate.guard.backend.disconnect().await {
            tracing::info!(target = %candidate.spec.name, "disconnected: more than --max-connected-targets were connected");
            connected -= 1;
        }
    }
}
