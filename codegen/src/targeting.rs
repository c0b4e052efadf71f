//! A profile's inputs get their targeting from their schemas: every input type whose
//! schema has one of libtmux's targeting properties implements
//! `crate::runtime::targeting::Targeted`, reading exactly the properties the schema
//! has (the others are `None`). The adapters then read any input's targeting through
//! one trait, and a property renamed upstream breaks the build, not a call.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::load::ToolFile;

/// libtmux's targeting arguments, as `runtime::targeting::Targeting` names its fields.
pub const FIELDS: [&str; 6] = [
    "socket_name",
    "session_name",
    "session_id",
    "window_id",
    "window_index",
    "pane_id",
];

/// The targeting properties of `tool`'s input schema, in [`FIELDS`]' order.
pub fn fields_of(tool: &ToolFile) -> Vec<&'static str> {
    let properties = tool
        .input_schema
        .get("properties")
        .and_then(serde_json::Value::as_object);
    FIELDS
        .into_iter()
        .filter(|field| properties.is_some_and(|properties| properties.contains_key(*field)))
        .collect()
}

/// `impl Targeted for types::<input>` for every tool of `inputs` (each with its input
/// type's name) whose input has a targeting property; emitted beside the profile's
/// `types` module.
pub fn emit_targeting<'a>(inputs: impl Iterator<Item = (&'a ToolFile, &'a str)>) -> TokenStream {
    let impls = inputs.filter_map(|(tool, input)| {
        let present = fields_of(tool);
        if present.is_empty() {
            return None;
        }
        let input = format_ident!("{}", input);
        let members = FIELDS.into_iter().map(|field| {
            let name = format_ident!("{}", field);
            if present.contains(&field) {
                quote!(#name: crate::runtime::targeting::TargetField::target(&self.#name))
            } else {
                quote!(#name: ::std::option::Option::None)
            }
        });
        Some(quote! {
            impl crate::runtime::targeting::Targeted for types::#input {
                fn targeting(&self) -> crate::runtime::targeting::Targeting<'_> {
                    crate::runtime::targeting::Targeting { #(#members),* }
                }
            }
        })
    });
    quote! {
        #(#impls)*
    }
}
