//! The facts of a tool file (`paneward_contract::facts`) as the tool table holds them:
//! typed values of `crate::runtime::facts`, which the guards and batches read.

use paneward_contract::facts::{Facts, FleetRoute, Reach};
use paneward_contract::template::{Form, Piece, Template};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::case::pascal_case;

/// The fields of a `ToolSpec` that carry `facts`.
pub fn fields(facts: &Facts) -> TokenStream {
    let reaches = match &facts.reaches {
        Some(rules) => {
            let rules = rules.iter().map(|rule| {
                let reach = reach(rule.reach);
                let only = match &rule.only {
                    Some((argument, given)) => {
                        quote!(::std::option::Option::Some(crate::runtime::facts::Presence { argument: #argument, given: #given }))
                    }
                    None => quote!(::std::option::Option::None),
                };
                quote!(crate::runtime::facts::ReachSpec { reach: #reach, only: #only })
            });
            quote!(::std::option::Option::Some(&[ #(#rules),* ]))
        }
        None => quote!(::std::option::Option::None),
    };
    let pane_text = facts.pane_text;
    let batch = match &facts.batch {
        Some(rule) => {
            let refused = format_ident!("{}", pascal_case(rule.refused.as_str()));
            let unless = match &rule.unless {
                Some((argument, equals)) => {
                    let equals = equals.to_string();
                    quote!(::std::option::Option::Some(crate::runtime::facts::Equals { argument: #argument, equals: #equals }))
                }
                None => quote!(::std::option::Option::None),
            };
            quote!(::std::option::Option::Some(&crate::runtime::facts::BatchSpec {
                refused: crate::runtime::facts::BatchRefusal::#refused,
                unless: #unless,
            }))
        }
        None => quote!(::std::option::Option::None),
    };
    let dry_run = match &facts.dry_run {
        Some(dry_run) => {
            let does = template(&dry_run.does);
            let tmux = match &dry_run.tmux {
                Some(tmux) => {
                    let tmux = template(tmux);
                    quote!(::std::option::Option::Some(#tmux))
                }
                None => quote!(::std::option::Option::None),
            };
            let closes = match &dry_run.closes {
                Some(closes) => {
                    let argument = &closes.argument;
                    let by = format_ident!("{}", pascal_case(closes.by.as_str()));
                    quote!(::std::option::Option::Some(crate::runtime::facts::ClosesSpec {
                        argument: #argument,
                        by: crate::runtime::facts::CloseBy::#by,
                    }))
                }
                None => quote!(::std::option::Option::None),
            };
            quote!(::std::option::Option::Some(&crate::runtime::facts::DryRunSpec {
                does: #does,
                tmux: #tmux,
                closes: #closes,
            }))
        }
        None => quote!(::std::option::Option::None),
    };
    let fleet = match facts.fleet {
        FleetRoute::OneTarget => quote!(crate::runtime::facts::FleetRoute::OneTarget),
        FleetRoute::FanOut => quote!(crate::runtime::facts::FleetRoute::FanOut),
        FleetRoute::Rows => quote!(crate::runtime::facts::FleetRoute::Rows),
    };
    quote! {
        reaches: #reaches,
        pane_text: #pane_text,
        batch: #batch,
        dry_run: #dry_run,
        fleet: #fleet,
    }
}

fn reach(reach: Reach) -> TokenStream {
    let variant = format_ident!("{}", pascal_case(reach.as_str()));
    quote!(crate::runtime::facts::Reach::#variant)
}

fn template(template: &Template) -> TokenStream {
    let pieces = pieces(&template.0);
    quote!(&[ #(#pieces),* ])
}

fn pieces(pieces: &[Piece]) -> Vec<TokenStream> {
    pieces
        .iter()
        .map(|piece| match piece {
            Piece::Text(text) => quote!(crate::runtime::facts::Piece::Text(#text)),
            Piece::Optional(inner) => {
                let inner = self::pieces(inner);
                quote!(crate::runtime::facts::Piece::Optional(&[ #(#inner),* ]))
            }
            Piece::Value(placeholder) => {
                let arguments = &placeholder.arguments;
                let fallback = match &placeholder.fallback {
                    Some(fallback) => quote!(::std::option::Option::Some(#fallback)),
                    None => quote!(::std::option::Option::None),
                };
                let form = match &placeholder.form {
                    Form::Plain => quote!(crate::runtime::facts::Form::Plain),
                    Form::Quoted => quote!(crate::runtime::facts::Form::Quoted),
                    Form::Choice { cases, otherwise } => {
                        let cases = cases.iter().map(|(value, word)| quote!((#value, #word)));
                        quote!(crate::runtime::facts::Form::Choice { cases: &[ #(#cases),* ], otherwise: #otherwise })
                    }
                };
                quote!(crate::runtime::facts::Piece::Value(crate::runtime::facts::Placeholder {
                    arguments: &[ #(#arguments),* ],
                    fallback: #fallback,
                    form: #form,
                }))
            }
        })
        .collect()
}
