//! Infrastructure work: where state lives, what may be applied from where, regions, limits
//! and who approves what, between everyday turns of work.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "platform-infra",
    name: "infractl",
    dir: "",
    modules: &[
        "cluster", "dns", "certs", "vpc", "state", "deploy", "alerts", "backup",
    ],
    nouns: &["node", "zone", "record", "plan"],
    dependencies: &[
        ("aws-sdk-s3", "1.65.0"),
        ("tokio", "1.41.1"),
        ("serde_yaml", "0.9.34"),
        ("clap", "4.5.21"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "terraform state lives in the S3 bucket tf-state-prod with a DynamoDB lock table, nobody keeps a local state file"),
    (Assistant, "The plan wanted to recreate the database because the subnet group name changed; I reverted the rename, so it is an in-place change now."),
    (Person, "terraform apply only runs from CI on merge to main, never from a laptop, the audit team checks the CloudTrail for it"),
    (Assistant, "Production runs in eu-central-1 and the disaster-recovery copy in eu-west-1; the Route 53 health check fails over in about 90 seconds."),
    (Person, "the cluster autoscaler stops at 12 nodes, finance capped the monthly EC2 budget at 9,000 euros"),
    (Assistant, "The certificate renewal failed because the DNS-01 challenge record was created in the private zone instead of the public one."),
    (Person, "Priyanka approves every change to the VPC or the security groups, open the PR and tag her, don't merge before she does"),
    (Assistant, "Backups of the orders database are taken every 6 hours and kept for 35 days; a restore test runs every Sunday at 04:00 UTC."),
    (Person, "we are moving off the self-managed Prometheus to the managed one in Q1, so don't add new scrape configs to the old one"),
    (Assistant, "The node pool uses m7g instances now: the arm64 images are built for every service except the legacy PDF renderer."),
    (Person, "the legacy PDF renderer stays on its own x86 node group until the rewrite ships, it needs a font package with no arm64 build"),
    (Assistant, "Next step: move the DNS records for the marketing site to the new zone, then lower the TTL to 300 a day before the switch."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
