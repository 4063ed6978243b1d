use super::*;

const HOUR: u64 = 3600;
/// A five-hour window that began at `T0` and resets five hours later.
const T0: u64 = 1_764_000_000;

fn report(at: u64, five: f64, resets_at: u64) -> Report {
    Report {
        at,
        usage: PlanUsage {
            five_hour: Some(Window {
                used_percentage: five,
                resets_at: Some(resets_at),
            }),
            seven_day: None,
        },
    }
}

#[test]
fn reports_are_appended_and_read_back_oldest_first_skipping_a_line_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path());
    home.ensure().unwrap();
    let first = report(T0 + 60, 10.0, T0 + 5 * HOUR);
    let second = report(T0 + 120, 12.5, T0 + 5 * HOUR);
    append(&home, &second.usage, second.at).unwrap();
    append(&home, &first.usage, first.at).unwrap();
    let mut text = std::fs::read_to_string(path(&home)).unwrap();
    text.push_str("{\"at\": 17640");
    std::fs::write(path(&home), text).unwrap();
    assert_eq!(read(&home), [first, second]);
    let mode = std::fs::metadata(path(&home)).unwrap().permissions();
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(mode.mode() & 0o777, 0o600);
}

#[test]
fn the_file_is_cut_to_its_recent_reports_once_it_grows_past_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path());
    home.ensure().unwrap();
    let old = report(T0, 1.0, T0 + 5 * HOUR);
    append(&home, &old.usage, old.at).unwrap();
    let now = T0 + 9 * 86_400;
    let mut n = 0;
    while std::fs::metadata(path(&home)).unwrap().len() <= MAX_BYTES / 2 {
        let r = report(now - 1000 + n, 50.0, now + HOUR);
        append(&home, &r.usage, r.at).unwrap();
        n += 1;
    }
    // Past the bound: the week-old report goes, and at most KEEP_REPORTS stay.
    while std::fs::metadata(path(&home)).unwrap().len() > MAX_BYTES / 2 {
        let r = report(now + n, 50.0, now + HOUR);
        append(&home, &r.usage, r.at).unwrap();
        n += 1;
    }
    let kept = read(&home);
    assert!(kept.len() <= KEEP_REPORTS, "{}", kept.len());
    assert!(
        kept.iter().all(|r| r.at >= now - 1000),
        "the old report is gone"
    );
    assert_eq!(kept.last().unwrap().at, now + n - 1, "the newest is kept");
}

#[test]
fn a_window_is_drawn_against_its_pace_and_projected_at_its_recent_burn_rate() {
    let resets = T0 + 5 * HOUR;
    // 10% an hour in the window's first two hours, then 30% an hour in the last half hour.
    let history = vec![
        report(T0 + HOUR, 10.0, resets),
        report(T0 + 2 * HOUR, 20.0, resets),
        // Another window's report (the one before) is not this one's.
        report(T0 - HOUR, 90.0, T0),
        report(T0 + 2 * HOUR + HOUR / 2, 35.0, resets),
    ];
    let mut history = history;
    history.sort_by_key(|r| r.at);
    let now = T0 + 3 * HOUR;
    let latest = report(now, 50.0, resets).usage;
    let [five] = outlooks(&latest, &history, now).try_into().unwrap();
    assert_eq!(five.name, "5-hour");
    assert_eq!((five.starts_at, five.resets_at), (T0, resets));
    assert_eq!(five.used, 50.0);
    assert_eq!(five.pace, 60.0, "three hours of five");
    assert_eq!(
        five.points,
        [
            (T0 + HOUR, 10.0),
            (T0 + 2 * HOUR, 20.0),
            (T0 + 2 * HOUR + HOUR / 2, 35.0),
            (now, 50.0)
        ]
    );
    // The last hour: from 20% to 50%.
    assert_eq!(five.burn_per_hour, Some(30.0));
    // 50% left at 30% an hour: 1h40m from now, 20 minutes before the reset.
    assert_eq!(five.full_at, Some(now + 6000));
}

#[test]
fn a_window_that_lasts_at_its_rate_or_does_not_grow_has_no_time_of_reaching_its_limit() {
    let resets = T0 + 5 * HOUR;
    let slow = vec![report(T0 + 2 * HOUR, 20.0, resets)];
    let now = T0 + 3 * HOUR;
    let [five] = outlooks(&report(now, 25.0, resets).usage, &slow, now)
        .try_into()
        .unwrap();
    assert_eq!(five.burn_per_hour, Some(5.0));
    assert_eq!(
        five.full_at, None,
        "75% at 5% an hour outlasts the two hours left"
    );
    let flat = vec![report(T0 + 2 * HOUR, 25.0, resets)];
    let [five] = outlooks(&report(now, 25.0, resets).usage, &flat, now)
        .try_into()
        .unwrap();
    assert_eq!((five.burn_per_hour, five.full_at), (None, None));
    // A window that has reset since its last report has no outlook.
    assert!(outlooks(&report(now, 25.0, now - 1).usage, &flat, now).is_empty());
}

#[test]
fn each_window_that_reached_its_limit_is_one_hit_newest_first() {
    let history = vec![
        report(T0 + HOUR, 100.0, T0 + 5 * HOUR),
        report(T0 + 2 * HOUR, 100.0, T0 + 5 * HOUR + 30),
        report(T0 + 6 * HOUR, 40.0, T0 + 10 * HOUR),
        report(T0 + 9 * HOUR, 100.0, T0 + 10 * HOUR),
    ];
    let hits = limit_hits(&history);
    let at: Vec<(&str, u64)> = hits.iter().map(|h| (h.name, h.at)).collect();
    assert_eq!(at, [("5-hour", T0 + 9 * HOUR), ("5-hour", T0 + HOUR)]);
    assert_eq!(hits[1].resets_at, Some(T0 + 5 * HOUR));
}
