//! A number of things as a person says it, for every message and view.

/// `n` of a thing: `1 session`, `2 sessions`, `3 entries`.
pub fn count(n: impl Into<u64>, one: &str) -> String {
    let n = n.into();
    match (n, one.strip_suffix('y')) {
        (1, _) => format!("1 {one}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {one}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_people_say_them() {
        assert_eq!(count(1u32, "session"), "1 session");
        assert_eq!(count(0u32, "turn"), "0 turns");
        assert_eq!(count(3u64, "entry"), "3 entries");
        assert_eq!(count(1u64, "entry"), "1 entry");
    }
}
