//! The JSON Claude Code pipes to a statusLine command on every prompt render.

use serde::Deserialize;
use serde_json::value::RawValue;

use throughline_core::plan::{PlanUsage, Window};

/// What a statusline needs from the host, whatever host sent it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StatusInput {
    pub session_id: String,
    /// Tokens the context window holds.
    pub window: Option<u64>,
    /// Share of the window in use, 0–100, as the host computed it.
    pub used_percentage: Option<f64>,
    /// A subscriber's plan limits (`rate_limits`), when the client sends them.
    pub plan: PlanUsage,
}

#[derive(Deserialize)]
struct Payload<'a> {
    session_id: String,
    #[serde(default, borrow)]
    context_window: Option<ContextWindow<'a>>,
    /// `{"five_hour":{"used_percentage":42,"resets_at":1764590400},"seven_day":{...}}`
    /// (2.1.197 and 2.1.332; absent without a subscription).
    #[serde(default, borrow)]
    rate_limits: Option<RateLimits<'a>>,
}

#[derive(Deserialize)]
struct RateLimits<'a> {
    #[serde(default, borrow)]
    five_hour: Option<&'a RawValue>,
    #[serde(default, borrow)]
    seven_day: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RateWindow<'a> {
    #[serde(default, borrow)]
    used_percentage: Option<&'a RawValue>,
    #[serde(default, borrow)]
    resets_at: Option<&'a RawValue>,
}

/// One limit window as sent; a window whose share is missing or no number is unknown.
fn rate_window(raw: Option<&RawValue>) -> Option<Window> {
    let window: RateWindow = serde_json::from_str(raw?.get()).ok()?;
    let used = number(window.used_percentage)?;
    Some(Window {
        used_percentage: used.clamp(0.0, 100.0),
        resets_at: number(window.resets_at)
            .filter(|at| (0.0..=MAX_EPOCH_SECONDS).contains(at))
            .map(|at| at as u64),
    })
}

/// Later than any reset time a real client sends (year 2286), in seconds.
const MAX_EPOCH_SECONDS: f64 = 1e10;

/// Numbers kept as written: the client has sent `200000` and `200000.0`, and a number
/// serde cannot hold in its type (a fraction for an integer, `1e400`) must cost only that
/// field, never the whole line.
#[derive(Deserialize)]
struct ContextWindow<'a> {
    #[serde(default, borrow)]
    context_window_size: Option<&'a RawValue>,
    #[serde(default, borrow)]
    used_percentage: Option<&'a RawValue>,
}

/// The largest window taken as real; a bigger one is a broken payload, not a model.
const MAX_WINDOW: f64 = 100_000_000.0;

/// `None` for anything that is not a statusline payload.
pub fn decode_status(bytes: &[u8]) -> Option<StatusInput> {
    let payload: Payload = serde_json::from_slice(crate::without_bom(bytes)).ok()?;
    // The id only looks its session up; one longer than any host sends names none.
    if payload.session_id.is_empty()
        || payload.session_id.len() > throughline_core::payload::MAX_NAME_BYTES
    {
        return None;
    }
    let window = payload.context_window;
    let size = window.as_ref().and_then(|w| number(w.context_window_size));
    let used = window.as_ref().and_then(|w| number(w.used_percentage));
    let plan = match payload.rate_limits {
        Some(limits) => PlanUsage {
            five_hour: rate_window(limits.five_hour),
            seven_day: rate_window(limits.seven_day),
        },
        None => PlanUsage::default(),
    };
    Some(StatusInput {
        plan,
        session_id: payload.session_id,
        window: size
            .filter(|s| (1.0..=MAX_WINDOW).contains(s))
            .map(|s| s.round() as u64),
        // Rounding or a stale count can put it a little outside 0–100.
        used_percentage: used.map(|u| u.clamp(0.0, 100.0)),
    })
}

/// A finite JSON number in any notation (`21`, `21.0`, `2.1e1`, `-5`); anything else is
/// unknown.
fn number(raw: Option<&RawValue>) -> Option<f64> {
    let text = raw?.get();
    if !text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        return None;
    }
    text.parse::<f64>().ok().filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fields_claude_code_sends() {
        let payload = br#"{"session_id":"abc","transcript_path":"/t.jsonl","cwd":"/p",
            "model":{"id":"claude-opus-4-5","display_name":"Opus"},
            "context_window":{"total_input_tokens":42000,"total_output_tokens":900,
              "context_window_size":200000,"current_usage":{"input_tokens":10},
              "used_percentage":21,"remaining_percentage":79}}"#;
        assert_eq!(
            decode_status(payload),
            Some(StatusInput {
                session_id: "abc".into(),
                window: Some(200_000),
                used_percentage: Some(21.0),
                plan: PlanUsage::default(),
            })
        );
        // Before the first answer the client sends nulls.
        let early = br#"{"session_id":"abc","context_window":{"context_window_size":200000,
            "current_usage":null,"used_percentage":null}}"#;
        assert_eq!(decode_status(early).unwrap().used_percentage, None);
        assert_eq!(decode_status(b"garbage"), None);
        assert_eq!(decode_status(b"{\"session_id\":\"\"}"), None);
    }

    fn with(size: &str, used: &str) -> (Option<u64>, Option<f64>) {
        let json = format!(
            r#"{{"session_id":"s","context_window":{{"context_window_size":{size},"used_percentage":{used}}}}}"#
        );
        let input = decode_status(json.as_bytes()).expect("a statusline payload");
        (input.window, input.used_percentage)
    }

    #[test]
    fn every_json_number_shape_is_read() {
        for size in ["200000", "200000.0", "2e5", "2E+5", "2.0e5", "199999.6"] {
            assert_eq!(with(size, "21").0, Some(200_000), "{size}");
        }
        for used in ["21", "21.0", "2.1e1", "21.4"] {
            let got = with("200000", used).1.unwrap();
            assert!((got - 21.0).abs() < 0.5, "{used}: {got}");
        }
    }

    #[test]
    fn out_of_range_values_are_clamped_or_unknown() {
        assert_eq!(with("200000", "-5").1, Some(0.0));
        assert_eq!(with("200000", "123").1, Some(100.0));
        assert_eq!(with("200000", "1e400").1, None);
        for size in ["0", "-200000", "0.4", "1e12", "1e400"] {
            assert_eq!(with(size, "21"), (None, Some(21.0)), "{size}");
        }
        // Not numbers: that field is unknown, the rest still counts.
        assert_eq!(with("\"200000\"", "true"), (None, None));
        assert_eq!(with("{}", "[1]"), (None, None));
    }

    #[test]
    fn a_byte_order_mark_before_the_json_is_ignored() {
        let payload = b"\xef\xbb\xbf{\"session_id\":\"abc\"}";
        assert_eq!(decode_status(payload).unwrap().session_id, "abc");
    }

    #[test]
    fn a_subscribers_plan_limits_are_read_as_the_client_sends_them() {
        let payload = br#"{"session_id":"abc","rate_limits":{
            "five_hour":{"used_percentage":42.5,"resets_at":1764590400},
            "seven_day":{"used_percentage":13,"resets_at":1765000000}}}"#;
        let plan = decode_status(payload).unwrap().plan;
        assert_eq!(
            plan.five_hour,
            Some(Window {
                used_percentage: 42.5,
                resets_at: Some(1_764_590_400)
            })
        );
        assert_eq!(plan.seven_day.unwrap().used_percentage, 13.0);
        // One window broken or missing costs only that window.
        let half = br#"{"session_id":"abc","rate_limits":{"five_hour":{"used_percentage":"x"},
            "seven_day":{"used_percentage":120,"resets_at":-4}}}"#;
        let plan = decode_status(half).unwrap().plan;
        assert_eq!(plan.five_hour, None);
        assert_eq!(
            plan.seven_day,
            Some(Window {
                used_percentage: 100.0,
                resets_at: None
            })
        );
        let none = br#"{"session_id":"abc","rate_limits":null}"#;
        assert!(decode_status(none).unwrap().plan.is_empty());
    }
}
