//! A mobile app's releases: toolchains, store review, the release train, who owns which
//! platform and what the law asks of it, between everyday turns of work.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "parcel-app",
    name: "parcelapp",
    dir: "",
    modules: &[
        "login", "keychain", "push", "deeplink", "offline", "consent", "camera", "settings",
    ],
    nouns: &["parcel", "edit", "screen", "token"],
    dependencies: &[
        ("uniffi", "0.28.3"),
        ("rusqlite", "0.32.1"),
        ("reqwest", "0.12.9"),
        ("serde", "1.0.215"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "we build the iOS app with Xcode 16.1, 16.2 breaks code signing for the widget extension, don't upgrade the CI image"),
    (Assistant, "App Review rejected 4.2.0 because the account deletion option was buried behind support chat; it now sits under Settings > Account."),
    (Person, "minimum Android is API 26, marketing wants API 24 back but we said no, the camera library needs 26"),
    (Assistant, "The crash on launch in 4.1.3 came from reading the keychain before first unlock; the token read now waits for protectedDataAvailable."),
    (Person, "the release train is branch cut Monday, QA Tuesday and Wednesday, submit Thursday morning, never submit on a Friday"),
    (Assistant, "Push notifications go through Firebase on both platforms; the APNs key expires on 2027-03-14 and lives in the team's 1Password vault."),
    (Person, "new screens ship dark behind a LaunchDarkly flag and we turn them on for 5% first"),
    (Assistant, "Deep links broke on Android 12 because the assetlinks.json on the website lists only the debug signing fingerprint."),
    (Person, "Ji-ho owns the Android side, ask him before touching anything under android/app/src/main"),
    (Assistant, "The app bundle grew from 38 MB to 61 MB because the Lottie animations ship as uncompressed JSON; moving them to the CDN saves 19 MB."),
    (Person, "analytics needs the user's consent first, in the EU the SDK must not even initialise before the consent dialog is answered"),
    (Assistant, "Next: the offline queue loses edits made while the app is killed; persisting it to SQLite instead of memory is the fix I would do next."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
