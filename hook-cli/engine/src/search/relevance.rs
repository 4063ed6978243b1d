//! Does search put first the turn a person means? Seven sessions shaped like real ones (a web
//! API, a Rust CLI, a blog written about in Japanese, infrastructure with pasted logs, a
//! mobile app written about in Chinese, a data analysis with a correction, a move off a hosted
//! backend whose name fills the files read before the decision), and queries as a
//! person types them, each with the turn they mean: words they remember, an error message, a
//! file or flag name, a question, a word misspelt. Search runs over every project at once, as
//! `--all` does.

use super::*;
use crate::test_memory::{store_with, Fixture};

/// A query and the turn it means: `(query, session, turn number)`.
const QUERIES: &[(&str, &str, u32)] = &[
    // The web API.
    ("empty cart 500", "shop", 1),
    ("ZeroDivisionError checkout", "shop", 1),
    ("cart is empty 400", "shop", 2),
    ("rate limit login", "shop", 3),
    ("slowapi", "shop", 3),
    ("why redis for sessions", "shop", 4),
    ("sessions table in Postgres", "shop", 4),
    (
        "No signatures found matching the expected signature",
        "shop",
        5,
    ),
    ("stripe webhook staging", "shop", 5),
    ("changelog 1.8.0", "shop", 6),
    // The Rust CLI.
    ("windows line endings", "tally", 1),
    ("invalid digit found in string", "tally", 1),
    ("json output flag", "tally", 2),
    ("release build slow", "tally", 3),
    ("keep full LTO", "tally", 4),
    ("needless_range_loop", "tally", 5),
    ("publish crates.io", "tally", 6),
    // The blog.
    ("ダークモード", "blog", 1),
    ("prefers-color-scheme", "blog", 1),
    ("ページネーション", "blog", 2),
    ("2ページ目が空", "blog", 2),
    ("next/image", "blog", 3),
    ("RSS feed", "blog", 4),
    ("Cannot find module 'sharp'", "blog", 5),
    ("vercel deploy fails", "blog", 5),
    // Infrastructure.
    ("OOMKilled", "infra", 1),
    ("exit code 137", "infra", 1),
    ("requests 512Mi", "infra", 2),
    ("terraform destroy RDS", "infra", 3),
    ("forces replacement", "infra", 3),
    ("terraform apply laptop", "infra", 4),
    ("5xx alert", "infra", 5),
    ("HighErrorRate", "infra", 5),
    ("certificate expires", "infra", 6),
    ("certifcate expires", "infra", 6),
    ("cert-manager letsencrypt", "infra", 6),
    // The mobile app.
    ("键盘挡住输入框", "mobile", 1),
    ("KeyboardAvoidingView", "mobile", 1),
    ("推送通知 iOS", "mobile", 2),
    ("APNs", "mobile", 2),
    ("#0A84FF", "mobile", 3),
    ("theme colour", "mobile", 3),
    ("MMKV AsyncStorage", "mobile", 4),
    ("离线缓存", "mobile", 4),
    ("Cannot use import statement outside a module", "mobile", 5),
    ("transformIgnorePatterns", "mobile", 5),
    ("transformIgnorePatern", "mobile", 5),
    // The analysis.
    ("monthly revenue", "sales", 1),
    ("refunds included", "sales", 2),
    ("refunds excluded", "sales", 3),
    ("regions.png", "sales", 4),
    ("bar chart region", "sales", 4),
    ("customers more than 10 orders", "sales", 5),
    ("ACME Corp", "sales", 5),
    // The move off a hosted backend: its name fills the files read before the decision.
    ("supabase", "stack", 3),
    ("supabase cloudflare", "stack", 3),
    ("replace supabase", "stack", 3),
    ("avatar uploads R2", "stack", 4),
    ("row level security", "stack", 2),
];

fn sessions() -> Vec<Fixture<'static>> {
    vec![
        Fixture {
            id: "shop",
            project: "/work/shop-api",
            at: "2026-11-20T09:00:00.000Z",
            turns: vec![
                (
                    "The checkout endpoint returns 500 when the cart is empty. Can you find out why?",
                    "The handler divides the total by the item count; with an empty cart that is a ZeroDivisionError in app/checkout.py line 42.",
                    vec![(
                        "Bash",
                        r#"{"command":"pytest tests/test_checkout.py -x","description":"Run the checkout tests"}"#,
                        "FAILED tests/test_checkout.py::test_empty_cart\nTraceback (most recent call last):\n  File \"app/checkout.py\", line 42, in average_price\n    return total / len(items)\nZeroDivisionError: division by zero\n1 failed, 4 passed in 0.31s",
                    )],
                ),
                (
                    "Fix it so an empty cart returns 400 with a clear message.",
                    "Done: checkout now answers 400 \"cart is empty\" before any arithmetic, and a test covers it.",
                    vec![
                        (
                            "Edit",
                            r#"{"file_path":"/work/shop-api/app/checkout.py","old_string":"    avg = average_price(items)","new_string":"    if not items:\n        raise HTTPException(400, \"cart is empty\")\n    avg = average_price(items)"}"#,
                            "The file /work/shop-api/app/checkout.py has been updated successfully.",
                        ),
                        (
                            "Bash",
                            r#"{"command":"pytest -q","description":"Run all tests"}"#,
                            "......\n6 passed in 0.42s",
                        ),
                    ],
                ),
                (
                    "We need rate limiting on the login route, 5 attempts per minute per IP.",
                    "Added slowapi with a 5/minute limit on POST /login keyed by the client IP; the sixth attempt in a minute gets 429 Too Many Requests.",
                    vec![
                        (
                            "Bash",
                            r#"{"command":"pip install slowapi && pip freeze | grep slowapi"}"#,
                            "Successfully installed limits-3.13.0 slowapi-0.1.9\nslowapi==0.1.9",
                        ),
                        (
                            "Edit",
                            r#"{"file_path":"/work/shop-api/app/auth.py","old_string":"@router.post(\"/login\")","new_string":"@router.post(\"/login\")\n@limiter.limit(\"5/minute\")"}"#,
                            "The file /work/shop-api/app/auth.py has been updated successfully.",
                        ),
                    ],
                ),
                (
                    "Decision: we keep sessions in Redis, not in Postgres, because logout must be instant across all workers.",
                    "Understood: the session store stays in Redis. I rolled back the migration that added a sessions table to Postgres.",
                    vec![(
                        "Bash",
                        r#"{"command":"alembic downgrade -1"}"#,
                        "INFO  [alembic.runtime.migration] Running downgrade 7c1e2a9 -> 51d0b3f, add sessions table",
                    )],
                ),
                (
                    "The Stripe webhook fails in staging with 'No signatures found matching the expected signature for payload'.",
                    "Staging was given the production webhook signing secret. Set STRIPE_WEBHOOK_SECRET in staging to the signing secret of the staging endpoint and the check passes.",
                    vec![(
                        "Bash",
                        r#"{"command":"grep -rn STRIPE_WEBHOOK .env.staging deploy/"}"#,
                        "deploy/staging.yaml:31:  STRIPE_WEBHOOK_SECRET: from the production dashboard",
                    )],
                ),
                (
                    "Write the changelog entry for this release.",
                    "Added a 1.8.0 section to CHANGELOG.md: empty carts get 400, login is rate limited, sessions stay in Redis, and the staging webhook secret is fixed.",
                    vec![],
                ),
            ],
        },
        Fixture {
            id: "tally",
            project: "/work/tally",
            at: "2026-11-22T14:00:00.000Z",
            turns: vec![
                (
                    "tally gets the totals wrong on files with Windows line endings, off by one row.",
                    "Lines ending in \\r\\n kept the \\r, so the last column failed to parse as a number and that row was skipped. The reader now trims \\r before splitting.",
                    vec![(
                        "Bash",
                        r#"{"command":"cargo run -- samples/crlf.csv"}"#,
                        "   Compiling tally v0.2.4 (/work/tally)\n    Finished dev [unoptimized] target(s) in 2.10s\n     Running `target/debug/tally samples/crlf.csv`\nerror: invalid digit found in string at row 3",
                    )],
                ),
                (
                    "Add a --json flag that prints the result as JSON.",
                    "Added --json: it prints {\"rows\": n, \"sum\": s} through serde_json; without the flag the output is unchanged.",
                    vec![(
                        "Edit",
                        r#"{"file_path":"/work/tally/src/main.rs","old_string":"    println!(\"{} rows, sum {}\", rows, sum);","new_string":"    if args.json {\n        println!(\"{}\", serde_json::json!({\"rows\": rows, \"sum\": sum}));\n    } else {\n        println!(\"{} rows, sum {}\", rows, sum);\n    }"}"#,
                        "The file /work/tally/src/main.rs has been updated successfully.",
                    )],
                ),
                (
                    "The release build is slow, about 4 minutes. Can we make it faster?",
                    "Most of the time is link-time optimisation. Thin LTO with codegen-units = 16 brings the release build to 70 seconds; the binary grows by 4%.",
                    vec![(
                        "Bash",
                        r#"{"command":"cargo build --release --timings"}"#,
                        "    Finished release [optimized] target(s) in 3m 58s\n      Timing report saved to target/cargo-timings/cargo-timing.html",
                    )],
                ),
                (
                    "Let's not use thin LTO after all and keep full LTO: build time does not matter for releases, binary size does.",
                    "Reverted: the release profile is back to lto = true with the default codegen units.",
                    vec![],
                ),
                (
                    "clippy complains about needless_range_loop in parse.rs",
                    "Rewrote the loop over the fields with iter().enumerate(); clippy is clean now.",
                    vec![(
                        "Bash",
                        r#"{"command":"cargo clippy --all-targets"}"#,
                        "warning: the loop variable `i` is used to index `fields`\n  --> src/parse.rs:31:14\n   |\n31 |     for i in 0..fields.len() {\n   |              ^^^^^^^^^^^^^^^\n   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_range_loop",
                    )],
                ),
                (
                    "Publish 0.3.0 to crates.io",
                    "Tagged v0.3.0 and ran cargo publish; the registry lists tally 0.3.0.",
                    vec![(
                        "Bash",
                        r#"{"command":"git tag v0.3.0 && cargo publish"}"#,
                        "   Uploading tally v0.3.0 (/work/tally)\n   Published tally v0.3.0 at registry `crates-io`",
                    )],
                ),
            ],
        },
        Fixture {
            id: "blog",
            project: "/work/blog",
            at: "2026-11-24T01:00:00.000Z",
            turns: vec![
                (
                    "ブログにダークモードを追加してください。システムの設定に従うようにしたいです。",
                    "prefers-color-scheme を使ってダークモードを追加しました。色は CSS 変数で切り替えます。",
                    vec![(
                        "Edit",
                        r#"{"file_path":"/work/blog/styles/globals.css","old_string":":root {\n  --bg: #fff;","new_string":":root {\n  --bg: #fff;\n}\n@media (prefers-color-scheme: dark) {\n  :root { --bg: #111; --fg: #eee; }"}"#,
                        "The file /work/blog/styles/globals.css has been updated successfully.",
                    )],
                ),
                (
                    "記事一覧のページネーションが壊れています。2ページ目が空になります。",
                    "offset の計算が page * 10 になっていて、1ページ分ずれていました。(page - 1) * 10 に直しました。",
                    vec![(
                        "Bash",
                        r#"{"command":"npm test -- pagination"}"#,
                        "PASS  tests/pagination.test.ts\n  ✓ page 1 lists posts 1-10 (4 ms)\n  ✓ page 2 lists posts 11-20 (1 ms)",
                    )],
                ),
                (
                    "画像の最適化に next/image を使いたいです。",
                    "記事中の img タグを next/image に置き換え、width と height は frontmatter から渡すようにしました。",
                    vec![],
                ),
                (
                    "RSSフィードも追加して。",
                    "Added /feed.xml, generated at build time from each post's frontmatter (title, date, summary).",
                    vec![(
                        "Write",
                        r#"{"file_path":"/work/blog/scripts/feed.ts","content":"import { Feed } from 'feed';\n// builds public/feed.xml from the posts\n"}"#,
                        "File created successfully at: /work/blog/scripts/feed.ts",
                    )],
                ),
                (
                    "Vercel でデプロイが失敗します: Error: Cannot find module 'sharp'",
                    "sharp が devDependencies に入っていたため、本番ビルドで見つかりませんでした。dependencies に移しました。",
                    vec![(
                        "Bash",
                        r#"{"command":"npm ls sharp"}"#,
                        "blog@0.1.0 /work/blog\n└── sharp@0.33.5 (dev)",
                    )],
                ),
            ],
        },
        Fixture {
            id: "infra",
            project: "/work/infra",
            at: "2026-11-26T16:00:00.000Z",
            turns: vec![
                (
                    "Pods keep restarting. Here is kubectl describe:\n\nName:         api-6d5f7c9b8-x2k4p\nNamespace:    prod\nContainers:\n  api:\n    State:          Running\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  14\n    Limits:\n      memory:  256Mi",
                    "The api container is OOMKilled: its memory limit is 256Mi while the JVM heap is set to 512m. Either raise the limit to 768Mi or lower -Xmx to 192m.",
                    vec![],
                ),
                (
                    "Raise the memory limit to 768Mi and set requests to 512Mi.",
                    "Updated deploy/api.yaml: requests.memory 512Mi, limits.memory 768Mi. Rolled out; no restarts in the last 10 minutes.",
                    vec![(
                        "Bash",
                        r#"{"command":"kubectl -n prod rollout status deploy/api"}"#,
                        "Waiting for deployment \"api\" rollout to finish: 1 of 3 updated replicas are available...\ndeployment \"api\" successfully rolled out",
                    )],
                ),
                (
                    "terraform plan wants to destroy the RDS instance, why?",
                    "engine_version went from 14.9 to 15.4 in variables.tf, and a major version change forces replacement. Set allow_major_version_upgrade = true so the instance is upgraded in place instead.",
                    vec![(
                        "Bash",
                        r#"{"command":"terraform plan -no-color | head -40"}"#,
                        "  # aws_db_instance.main must be replaced\n-/+ resource \"aws_db_instance\" \"main\" {\n      ~ engine_version = \"14.9\" -> \"15.4\" # forces replacement\n        identifier     = \"prod-main\"\n    }\nPlan: 1 to add, 0 to change, 1 to destroy.",
                    )],
                ),
                (
                    "Constraint: never run terraform apply from a laptop. Only the CI pipeline applies.",
                    "Noted: I will only run terraform plan locally and leave apply to the pipeline.",
                    vec![],
                ),
                (
                    "Set up an alert when the 5xx rate is above 2% for 5 minutes.",
                    "Added the Prometheus rule HighErrorRate (share of 5xx responses over 2% for 5 minutes), routed to the on-call channel.",
                    vec![(
                        "Write",
                        r#"{"file_path":"/work/infra/alerts/api.yaml","content":"groups:\n- name: api\n  rules:\n  - alert: HighErrorRate\n    expr: sum(rate(http_requests_total{status=~\"5..\"}[5m])) / sum(rate(http_requests_total[5m])) > 0.02\n    for: 5m\n"}"#,
                        "File created successfully at: /work/infra/alerts/api.yaml",
                    )],
                ),
                (
                    "The TLS certificate for api.example.com expires on December 14; renew it with cert-manager.",
                    "Created a cert-manager Certificate for api.example.com issued by the letsencrypt-prod ClusterIssuer; it was renewed and now expires on March 3.",
                    vec![(
                        "Bash",
                        r#"{"command":"kubectl -n prod get certificate api-example-com"}"#,
                        "NAME              READY   SECRET            AGE\napi-example-com   True    api-example-tls   2m",
                    )],
                ),
            ],
        },
        Fixture {
            id: "mobile",
            project: "/work/mobile",
            at: "2026-11-27T03:00:00.000Z",
            turns: vec![
                (
                    "登录页面在安卓上键盘会挡住输入框，帮我修一下。",
                    "用 KeyboardAvoidingView 包住了表单，安卓上 behavior 设为 height，现在键盘不会挡住输入框了。",
                    vec![(
                        "Edit",
                        r#"{"file_path":"/work/mobile/src/screens/Login.tsx","old_string":"<View style={styles.form}>","new_string":"<KeyboardAvoidingView behavior={Platform.OS === 'ios' ? 'padding' : 'height'} style={styles.form}>"}"#,
                        "The file /work/mobile/src/screens/Login.tsx has been updated successfully.",
                    )],
                ),
                (
                    "推送通知在 iOS 上收不到。",
                    "APNs 证书是开发环境的，正式包需要生产环境的证书。我已经在 Expo 后台上传了生产证书，重新打包后可以收到了。",
                    vec![],
                ),
                (
                    "把应用的主题色改成 #0A84FF。",
                    "Changed the primary colour in src/theme.ts to #0A84FF; buttons and links follow it.",
                    vec![(
                        "Edit",
                        r##"{"file_path":"/work/mobile/src/theme.ts","old_string":"primary: '#1E88E5'","new_string":"primary: '#0A84FF'"}"##,
                        "The file /work/mobile/src/theme.ts has been updated successfully.",
                    )],
                ),
                (
                    "决定：离线缓存用 MMKV，不用 AsyncStorage，因为读写要快。",
                    "好的，缓存层已经换成 react-native-mmkv，AsyncStorage 只用来迁移旧数据。",
                    vec![],
                ),
                (
                    "Jest fails now: SyntaxError: Cannot use import statement outside a module, in node_modules/react-native-mmkv",
                    "Added react-native-mmkv to transformIgnorePatterns in jest.config.js so Babel transforms it; the suite passes.",
                    vec![(
                        "Bash",
                        r#"{"command":"npx jest"}"#,
                        "FAIL src/cache.test.ts\n  ● Test suite failed to run\n\n    Jest encountered an unexpected token\n\n    /work/mobile/node_modules/react-native-mmkv/lib/module/index.js:1\n    import { MMKV } from './MMKV';\n    ^^^^^^\n\n    SyntaxError: Cannot use import statement outside a module",
                    )],
                ),
            ],
        },
        Fixture {
            id: "sales",
            project: "/work/sales-analysis",
            at: "2026-11-29T11:00:00.000Z",
            turns: vec![
                (
                    "Load sales_2025.csv and tell me the monthly revenue.",
                    "The file has 12,480 rows. Monthly revenue runs from 41k in February to 88k in November.",
                    vec![(
                        "Bash",
                        r#"{"command":"python3 -c \"import pandas as pd; df = pd.read_csv('sales_2025.csv'); print(df.groupby('month').revenue.sum())\""}"#,
                        "month\n1     52340.10\n2     41022.75\n3     57310.00\n...\n11    88104.20\n12    80211.05\nName: revenue, dtype: float64",
                    )],
                ),
                (
                    "Those numbers look too high. Are refunds included?",
                    "Yes. Refunds are rows with a negative quantity, and clean() applied abs() to them, so they were added as sales. Netted out, November is 79k.",
                    vec![],
                ),
                (
                    "Correction: refunds must be excluded entirely, not netted out.",
                    "Understood: refund rows are now dropped before aggregating; November is 83k.",
                    vec![],
                ),
                (
                    "Make a bar chart of revenue per region and save it as regions.png",
                    "Saved regions.png. West leads with 31% of revenue, then North with 27%.",
                    vec![(
                        "Bash",
                        r#"{"command":"python3 plot_regions.py --out regions.png"}"#,
                        "saved regions.png (1200x800)",
                    )],
                ),
                (
                    "Which customers bought more than 10 times?",
                    "47 customers placed more than 10 orders; the top one is ACME Corp with 63 orders.",
                    vec![(
                        "Bash",
                        r#"{"command":"python3 -c \"import pandas as pd; df = pd.read_csv('sales_2025.csv'); c = df.groupby('customer').order_id.nunique(); print(c[c > 10].sort_values(ascending=False).head())\""}"#,
                        "customer\nACME Corp        63\nGlobex           41\nInitech          29\nUmbrella         22\nHooli            18\nName: order_id, dtype: int64",
                    )],
                ),
            ],
        },
        Fixture {
            id: "stack",
            project: "/work/pantry",
            at: "2026-11-24T10:00:00.000Z",
            turns: vec![
                (
                    "Read the project and tell me which hosted services it uses.",
                    "It uses Supabase for auth, the Postgres database and file storage, and Vercel for hosting.",
                    vec![
                        (
                            "Read",
                            r#"{"file_path":"/work/pantry/package.json"}"#,
                            "{\n  \"name\": \"pantry\",\n  \"dependencies\": {\n    \"@supabase/supabase-js\": \"^2.45.0\",\n    \"@supabase/auth-helpers-nextjs\": \"^0.10.0\",\n    \"@supabase/storage-js\": \"^2.7.0\",\n    \"next\": \"14.2.5\"\n  },\n  \"scripts\": {\n    \"db:types\": \"supabase gen types typescript --local > lib/supabase.types.ts\",\n    \"db:reset\": \"supabase db reset\"\n  }\n}",
                        ),
                        (
                            "Read",
                            r#"{"file_path":"/work/pantry/lib/supabase.ts"}"#,
                            "import { createClient } from '@supabase/supabase-js'\nimport type { Database } from './supabase.types'\n\nexport const supabase = createClient<Database>(\n  process.env.NEXT_PUBLIC_SUPABASE_URL!,\n  process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY!,\n)\n// supabase storage bucket for avatars, supabase auth for sessions\nexport const avatars = supabase.storage.from('avatars')",
                        ),
                    ],
                ),
                (
                    "Users can read other households' pantries. Check the row level security policies.",
                    "The pantry_items table has RLS enabled but its select policy is `using (true)`; I changed it to `household_id = auth.jwt() ->> 'household_id'`.",
                    vec![(
                        "Bash",
                        r#"{"command":"supabase db diff --schema public"}"#,
                        "create policy \"read own household\" on public.pantry_items for select using (household_id = (auth.jwt() ->> 'household_id')::uuid);\n-- supabase: 1 policy changed, 0 tables changed",
                    )],
                ),
                (
                    "Can we replace the Supabase services with Cloudflare equivalents? Auth, storage and the database.",
                    "Yes: D1 for the database, R2 for file storage and Cloudflare Access or a small Workers auth for sign-in. The RLS policies have to move into the Workers code, as D1 has no row level security.",
                    vec![],
                ),
                (
                    "Start with storage: move the avatar uploads to R2.",
                    "Avatar uploads now go to the R2 bucket `pantry-avatars` through a Worker; the old Supabase bucket is read as a fallback until it is migrated.",
                    vec![(
                        "Bash",
                        r#"{"command":"grep -rn \"supabase.storage\" app lib"}"#,
                        "lib/supabase.ts:9:export const avatars = supabase.storage.from('avatars')\napp/profile/upload.ts:14:  await supabase.storage.from('avatars').upload(path, file)\napp/profile/avatar.tsx:22:  const { data } = supabase.storage.from('avatars').getPublicUrl(path)",
                    )],
                ),
            ],
        },
    ]
}

#[test]
fn the_turn_a_person_means_comes_first() {
    let (_dir, store) = store_with(&sessions());
    let mut first = 0;
    let mut top3 = 0;
    let mut missed = Vec::new();
    for (query, session, seq) in QUERIES {
        let session = store.session(session).unwrap();
        let meant = store
            .turns(&session)
            .unwrap()
            .into_iter()
            .find(|t| t.seq == *seq)
            .unwrap()
            .code;
        let hits = search(
            &store,
            &Request {
                query: query.to_string(),
                limit: 10,
                ..Request::default()
            },
        )
        .unwrap()
        .hits;
        // The turns in the order the hits name them.
        let mut turns: Vec<&str> = Vec::new();
        for hit in &hits {
            if !turns.contains(&hit.entry.turn.as_str()) {
                turns.push(&hit.entry.turn);
            }
        }
        match turns.iter().position(|t| *t == meant) {
            Some(0) => first += 1,
            Some(place) if place < 3 => {
                missed.push(format!("{query:?}: turn {seq} is hit {}", place + 1))
            }
            _ => missed.push(format!("{query:?}: turn {seq} not in the first three")),
        }
        if turns.iter().take(3).any(|t| *t == meant) {
            top3 += 1;
        }
    }
    let n = QUERIES.len();
    // Shown with `--nocapture`: the figures BENCHMARKS.md records.
    eprintln!(
        "first {first}/{n}, first three {top3}/{n}\n{}",
        missed.join("\n")
    );
    // The meant turn first for 90% of queries, in the first three for 98%.
    assert!(
        first * 100 >= n * 90 && top3 * 100 >= n * 98,
        "first {first}/{n}, first three {top3}/{n}:\n{}",
        missed.join("\n")
    );
}
