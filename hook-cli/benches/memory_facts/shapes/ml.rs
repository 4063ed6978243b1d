//! Machine-learning experiments: which data and settings keep runs comparable, what a run
//! showed, whose hardware may be used and who signs off, between everyday turns of work.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "fraud-model",
    name: "fraudml",
    dir: "",
    modules: &[
        "dataset",
        "features",
        "train",
        "evaluate",
        "tokenizer",
        "serve",
        "calibrate",
        "export",
    ],
    nouns: &["batch", "feature", "run", "checkpoint"],
    dependencies: &[
        ("candle-core", "0.8.0"),
        ("polars", "0.44.2"),
        ("ndarray", "0.16.1"),
        ("serde", "1.0.215"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "fwiw the eval set is frozen at commit 4e1c2a9 of the data repo, if you regenerate it the numbers stop being comparable with last quarter's"),
    (Assistant, "Turns out the loss spikes at step 12k come from a batch of empty captions; the dataloader now skips rows shorter than 3 tokens."),
    (Person, "keep the learning rate at 3e-4, anything higher and the run diverges around epoch 2, we burned a week on that in october"),
    (Assistant, "Class weighting took macro F1 on the held-out set from 0.81 to 0.86, but precision on the rare fraud class dropped to 0.62."),
    (Person, "heads up, the A100 box is shared with the speech team, only use GPUs 4 to 7 on it"),
    (Assistant, "Mixed precision halves the step time, but the attention logits overflow in fp16, so the softmax stays in fp32."),
    (Person, "we report macro F1, not accuracy, the classes are 95/5 so accuracy says nothing"),
    (Assistant, "The tokenizer was trained on lowercased text, so the inference service must lowercase its inputs too or the unknown-token rate triples."),
    (Person, "checkpoints go to gs://ml-ckpt/fraud-v3 and we keep only the last 5, the bucket bills per GB"),
    (Assistant, "I pinned torch to 2.4.1 because 2.5.0 changed the default of weights_only in torch.load and our old checkpoints fail to load."),
    (Person, "Ana from compliance has to sign off on any feature built from the customer's postcode, so leave postcode out of v3 for now"),
    (Assistant, "Still open: the calibration curve above 0.9 is off by about 8 points; temperature scaling on the validation set is the next thing to try."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
