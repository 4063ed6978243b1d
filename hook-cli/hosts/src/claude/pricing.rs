//! What a Claude model's tokens cost, relative to each other: the price of a fresh input token
//! in dollars per million, as Anthropic lists it. A cache write, a cache read and an output
//! token are the same multiples of it for every model listed (1.25, 0.1 and 5), so this one
//! number sets a model's weight. How a plan counts a model against its limits is not
//! published; API prices are the nearest public measure.

/// Input price per million tokens, by model id (its date suffix and `[1m]` aside), the more
/// specific ids first. Listed prices on 2026-12-01.
const PRICES: &[(&str, f64)] = &[
    ("claude-fable-5-1", 10.0),
    ("claude-opus-5-5", 4.0),
    ("claude-opus-5", 5.0),
    ("claude-opus-4-8", 5.0),
    ("claude-opus-4-7", 5.0),
    ("claude-opus-4-6", 5.0),
    ("claude-opus-4-5", 5.0),
    ("claude-opus-4-1", 15.0),
    ("claude-opus-4", 15.0),
    ("claude-3-opus", 15.0),
    ("claude-sonnet-5-5", 2.0),
    ("claude-sonnet-5", 2.0),
    ("claude-sonnet-4", 3.0),
    ("claude-3-7-sonnet", 3.0),
    ("claude-3-5-sonnet", 3.0),
    // "From $0.10": the lowest price it is listed at.
    ("claude-haiku-5-5", 0.1),
    ("claude-haiku-4-5", 1.0),
    ("claude-3-5-haiku", 0.8),
    ("claude-3-haiku", 0.25),
];

/// A model of a family this list does not name yet costs what the family's newest listed
/// model does; one of no known family what a Sonnet of today does.
const FAMILIES: &[(&str, f64)] = &[
    ("fable", 10.0),
    ("opus", 4.0),
    ("sonnet", 2.0),
    ("haiku", 0.1),
];
const UNKNOWN: f64 = 2.0;

/// The input price per million tokens of `model` (an id as the transcript names it).
pub fn input_price(model: Option<&str>) -> f64 {
    let Some(model) = model else {
        return UNKNOWN;
    };
    let id = model.to_ascii_lowercase();
    let id = id.strip_suffix("[1m]").unwrap_or(&id);
    let named = |listed: &str| {
        id.strip_prefix(listed)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
    };
    PRICES
        .iter()
        .find(|(listed, _)| named(listed))
        .or_else(|| FAMILIES.iter().find(|(family, _)| id.contains(family)))
        .map_or(UNKNOWN, |(_, price)| *price)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_model_costs_what_its_listing_says_and_a_new_one_its_family() {
        for (model, price) in [
            ("claude-opus-5-5", 4.0),
            ("claude-opus-4-1-20250805", 15.0),
            ("claude-opus-4-20250514", 15.0),
            ("claude-opus-4-6[1m]", 5.0),
            ("claude-sonnet-4-5-20250929", 3.0),
            ("claude-sonnet-5", 2.0),
            ("claude-haiku-4-5-20251001", 1.0),
            ("claude-3-5-haiku-20241022", 0.8),
            ("claude-opus-6", 4.0),
            ("claude-haiku-6", 0.1),
            ("some-other-model", 2.0),
        ] {
            assert_eq!(input_price(Some(model)), price, "{model}");
        }
        assert_eq!(input_price(None), 2.0);
    }
}
