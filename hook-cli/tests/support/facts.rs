//! When a planted fact counts as kept by a memory: its sentence reaches the memory whole, or a
//! verbatim part of it of at least [`MIN_PART`] consecutive characters does (all of it when
//! the sentence is shorter), with every run of white space read as one space, since a memory
//! may rewrap lines. A key token alone (`8443`) does not count: the reader needs to know what
//! it was about.

/// Characters of a sentence that must arrive together.
pub const MIN_PART: usize = 40;

/// Whether `memory` keeps `sentence` by the rule above.
pub fn kept(sentence: &str, memory: &str) -> bool {
    let sentence = collapse_space(sentence);
    let needed = sentence.chars().count().min(MIN_PART);
    longest_run(&sentence, &collapse_space(memory)) >= needed
}

/// The most consecutive characters of `sentence` found verbatim in `memory` (white space
/// collapsed in both): what a lost fact still left behind.
pub fn longest_part(sentence: &str, memory: &str) -> usize {
    longest_run(&collapse_space(sentence), &collapse_space(memory))
}

fn collapse_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn longest_run(sentence: &str, memory: &str) -> usize {
    let bounds: Vec<usize> = sentence
        .char_indices()
        .map(|(at, _)| at)
        .chain([sentence.len()])
        .collect();
    let mut best = 0;
    // From each start, only a run longer than the best so far is worth looking for.
    for start in 0..bounds.len() - 1 {
        while start + best + 1 < bounds.len()
            && memory.contains(&sentence[bounds[start]..bounds[start + best + 1]])
        {
            best += 1;
        }
    }
    best
}
