use super::*;

fn prompt(key: &str) -> Record {
    Record::Prompt {
        key: key.to_string(),
        text: key.to_string(),
        at: Some("2026-12-01T10:00:00.000Z".to_string()),
    }
}

fn answer(key: &str, at: Option<&str>) -> Record {
    Record::Answer {
        key: key.to_string(),
        text: key.to_string(),
        at: at.map(str::to_string),
    }
}

const AT: &str = "2026-12-01T10:00:01.000Z";
/// Within [`HOLD`] of `AT`, and long after it.
const SOON: &str = "2026-12-01T10:00:02.000Z";
const LATER: &str = "2026-12-01T10:05:00.000Z";

fn link(id: u64, parent: Option<u64>) -> Option<Link> {
    Some(Link { id, parent })
}

/// Places `lines` in turn and returns the keys of the records passed on.
fn place_all(order: &mut Order, lines: Vec<(Option<Link>, Record)>) -> Vec<String> {
    let mut out = Vec::new();
    for (link, record) in lines {
        order.place(link, &format!("{record:?}"), &mut vec![record], &mut out);
    }
    keys(&out)
}

fn keys(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .map(|r| match r {
            Record::Prompt { key, .. } | Record::Answer { key, .. } => key.clone(),
            other => panic!("unexpected record {other:?}"),
        })
        .collect()
}

#[test]
fn lines_written_before_their_prompt_follow_it() {
    // As Claude Code wrote it under load: the model's first line of turn 2, then the prompt
    // and the attachment the model's line descends from.
    let mut order = Order::new(None, true);
    let placed = place_all(
        &mut order,
        vec![
            (link(1, None), prompt("p1")),
            (link(2, Some(1)), answer("a1", Some(AT))),
            (link(5, Some(4)), answer("t2", Some(AT))),
            (link(6, Some(5)), answer("call2", Some(AT))),
            (None, answer("bookkeeping", None)),
            (link(3, Some(2)), prompt("p2")),
            (link(4, Some(3)), answer("attachment2", Some(AT))),
        ],
    );
    assert_eq!(
        placed,
        [
            "p1",
            "a1",
            "bookkeeping",
            "p2",
            "attachment2",
            "t2",
            "call2"
        ]
    );
    assert!(order.state().held.is_empty());
}

#[test]
fn a_held_line_waits_across_calls_and_known_lines_do_not() {
    let mut first = Order::new(None, true);
    let placed = place_all(
        &mut first,
        vec![
            (link(1, None), prompt("p1")),
            (link(2, Some(1)), answer("a1", Some(AT))),
            (link(5, Some(4)), answer("t2", Some(AT))),
        ],
    );
    assert_eq!(placed, ["p1", "a1"]);
    let mut out = Vec::new();
    first.settle(SOON, &mut out);
    assert!(out.is_empty(), "a young line keeps waiting");

    // The next call starts from the saved state and reads the held line again first.
    let state = State::from_json(&first.state().to_json()).expect("state reads back");
    assert_eq!(state, first.state());
    let mut next = Order::new(Some(&state), false);
    let mut lines: Vec<_> = state
        .held_lines()
        .iter()
        .map(|_| (link(5, Some(4)), answer("t2", Some(AT))))
        .collect();
    lines.extend([
        (link(3, Some(2)), prompt("p2")),
        (link(4, Some(3)), answer("attachment2", Some(AT))),
    ]);
    assert_eq!(place_all(&mut next, lines), ["p2", "attachment2", "t2"]);
}

#[test]
fn a_prompt_lets_go_the_held_lines_it_follows_before_it() {
    // The parent of `x` was read too long ago to be known; the prompt after its reply ends
    // that turn, so both stay before the prompt.
    let mut order = Order::new(Some(&State::default()), false);
    let placed = place_all(
        &mut order,
        vec![
            (link(10, Some(99)), answer("x", Some(AT))),
            (link(11, Some(10)), answer("reply", Some(AT))),
            (link(20, Some(30)), answer("other", Some(AT))),
            (link(12, Some(11)), prompt("next")),
        ],
    );
    assert_eq!(placed, ["x", "reply", "next"]);
    assert_eq!(order.state().held.len(), 1, "`other` still waits");
}

#[test]
fn settling_lets_go_lines_past_the_hold_in_file_order() {
    let mut order = Order::new(None, true);
    let placed = place_all(
        &mut order,
        vec![
            (link(10, Some(98)), answer("old", Some(AT))),
            (link(11, Some(99)), answer("untimed", None)),
            (link(12, Some(11)), answer("child of untimed", Some(LATER))),
            (link(13, Some(97)), answer("young", Some(LATER))),
        ],
    );
    assert!(placed.is_empty());
    let mut out = Vec::new();
    order.settle(LATER, &mut out);
    assert_eq!(keys(&out), ["old", "untimed", "child of untimed"]);
    assert_eq!(order.state().held.len(), 1);
}

#[test]
fn without_a_saved_state_mid_file_unknown_parents_are_taken_as_read() {
    let mut order = Order::new(None, false);
    let placed = place_all(
        &mut order,
        vec![
            (link(10, Some(99)), answer("result", Some(AT))),
            (link(11, Some(10)), answer("reply", Some(AT))),
        ],
    );
    assert_eq!(placed, ["result", "reply"]);
}

#[test]
fn a_chain_in_a_circle_or_too_many_held_lines_end() {
    let mut order = Order::new(None, true);
    let placed = place_all(
        &mut order,
        vec![
            (link(1, Some(2)), answer("a", None)),
            (link(2, Some(1)), answer("b", None)),
        ],
    );
    assert!(placed.is_empty());
    let mut out = Vec::new();
    order.settle(AT, &mut out);
    assert_eq!(keys(&out), ["a", "b"]);

    let mut order = Order::new(None, true);
    let lines = (0..MAX_HELD as u64 + 5)
        .map(|i| {
            (
                link(i + 1, Some(1_000_000 + i)),
                answer(&format!("l{i}"), Some(AT)),
            )
        })
        .collect();
    let placed = place_all(&mut order, lines);
    assert_eq!(placed, ["l0", "l1", "l2", "l3", "l4"]);
    assert_eq!(order.state().held.len(), MAX_HELD);
}
