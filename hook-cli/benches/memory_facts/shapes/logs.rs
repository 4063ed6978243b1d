//! The person pastes logs and stack traces (30 to 200 lines) from a Python service and its
//! infrastructure, and a deploy script with what it printed; the assistant diagnoses, reads the
//! code and fixes it.

use fastrand::Rng;

use crate::filler::{bash, pick, read_file, routine_remark};
use crate::session::{fact_turns, plant, Session, Speaker, Speaker::*, Turn};

const ROOT: &str = "/home/dev/orders-api";

#[derive(Clone, Copy)]
enum Kind {
    Traceback,
    OutOfMemory,
    BadGateway,
    Celery,
    Ci,
    TooManyClients,
    DeployScript,
}

use Kind::*;

/// Each fact, and the kind of paste it goes with when it is about one.
const FACTS: [(Speaker, &str, Option<Kind>); 12] = [
    (Person, "This only happens on the arm64 runners; the x86 ones have been green for two weeks, so look at the platform first.", Some(Ci)),
    (Assistant, "Root cause: psycopg2 opens a new connection per request because CONN_MAX_AGE is 0, and Postgres hits max_connections=200.", Some(TooManyClients)),
    (Person, "Do not restart the primary database during business hours, Kenji Watanabe from the DBA team has to approve it first.", None),
    (Assistant, "The OOM kills come from the CSV export loading all 1.2 million rows at once; streaming with iterator(chunk_size=2000) fixes it.", Some(OutOfMemory)),
    (Person, "The payment webhook from Stripe times out after 10 seconds, so our handler must answer within 3 seconds and queue the rest.", None),
    (Assistant, "Diagnosis: the 502s start exactly when gunicorn recycles workers at max_requests=1000, because all of them restart together.", Some(BadGateway)),
    (Person, "We decided to pin celery to 5.3.6 until the prefetch regression in 5.4 is fixed upstream.", Some(Celery)),
    (Assistant, "The deadlock is between refresh_inventory and reserve_items: they lock the same stock rows in opposite order.", Some(Celery)),
    (Person, "Alerts for this service go to the #orders-alerts channel and page Priya Raman after 15 minutes without an ack.", None),
    (Assistant, "The certificate for payments.internal expires on 2026-12-14, and cert-manager cannot renew it because the DNS01 token was revoked.", None),
    (Person, "Keep the log level at INFO in production; DEBUG doubled the Datadog bill in October.", None),
    (Assistant, "Fix: set max_requests_jitter=200 so gunicorn recycles its workers at different times and there is always capacity.", Some(BadGateway)),
];

/// The service's files the assistant reads: `(path, source)`.
fn sources(rng: &mut Rng) -> Vec<(&'static str, String)> {
    const FILES: &[(&str, &[(&str, &str)])] = &[
        (
            "orders/services/reserve.py",
            &[
                ("reserve_items", "order"),
                ("release_items", "order"),
                ("check_stock", "sku"),
            ],
        ),
        (
            "orders/views.py",
            &[
                ("reserve", "request"),
                ("order_detail", "request"),
                ("list_orders", "request"),
            ],
        ),
        (
            "inventory/tasks.py",
            &[
                ("refresh_inventory", "warehouse"),
                ("sync_supplier_feed", "supplier"),
                ("expire_holds", "batch"),
            ],
        ),
        (
            "exports/csv_export.py",
            &[
                ("export_orders_csv", "queryset"),
                ("write_header", "writer"),
                ("format_row", "order"),
            ],
        ),
        (
            "payments/webhooks.py",
            &[
                ("stripe_webhook", "request"),
                ("handle_charge_succeeded", "event"),
                ("verify_signature", "payload"),
            ],
        ),
    ];
    FILES
        .iter()
        .map(|&(path, functions)| {
            let mut text = "\"\"\"Part of orders-api.\"\"\"\nimport logging\n\nfrom django.db import transaction\n\nfrom orders.models import Order, Stock\n\nlog = logging.getLogger(__name__)\n\n".to_string();
            for &(name, arg) in functions {
                let body = match rng.usize(..4) {
                    0 => format!("    with transaction.atomic():\n        for item in {arg}.items.all():\n            stock = Stock.objects.select_for_update().get(sku=item.sku)\n            stock.available -= item.qty\n            stock.save(update_fields=[\"available\"])\n    return {arg}\n"),
                    1 => format!("    rows = list({arg}.order_by(\"id\"))\n    log.info(\"%s: %d rows\", \"{name}\", len(rows))\n    return [r.as_dict() for r in rows]\n"),
                    2 => format!("    if {arg} is None:\n        raise ValueError(\"{name}: nothing to do\")\n    log.debug(\"{name} %r\", {arg})\n    return {arg}\n"),
                    _ => format!("    for attempt in range({}):\n        try:\n            return _call({arg})\n        except TimeoutError:\n            log.warning(\"{name} timed out, attempt %d\", attempt)\n    raise TimeoutError(\"{name}\")\n", rng.u32(3..6)),
                };
                text.push_str(&format!("\ndef {name}({arg}):\n    \"\"\"{}.\"\"\"\n{body}\n", name.replace('_', " ")));
            }
            (path, text)
        })
        .collect()
}

/// `HH:MM:SS` of the next log line, a few seconds after the one before.
fn clock(rng: &mut Rng, seconds: &mut u32) -> String {
    *seconds += rng.u32(0..25);
    let t = 9 * 3600 + *seconds;
    format!("{:02}:{:02}:{:02}", t / 3600 % 24, t / 60 % 60, t % 60)
}

fn access_line(rng: &mut Rng, time: &str, status: u16) -> String {
    let (method, path) = *pick(
        rng,
        &[
            ("GET", "/api/v1/orders?page=2"),
            ("POST", "/api/v1/orders"),
            ("GET", "/api/v1/orders/8812"),
            ("POST", "/api/v1/orders/8812/reserve"),
            ("GET", "/healthz"),
            ("GET", "/api/v1/stock?sku=SKU-4471"),
        ],
    );
    format!(
        "10.2.{}.{} - - [30/Nov/2026:{time} +0000] \"{method} {path} HTTP/1.1\" {status} {} \"-\" \"{}\" 0.{:03}",
        rng.u8(1..9),
        rng.u8(2..250),
        rng.u32(90..4000),
        pick(rng, &["okhttp/4.12.0", "python-requests/2.32.3", "Mozilla/5.0", "kube-probe/1.31"]),
        rng.u32(5..999)
    )
}

/// A log of about `lines` lines, what it shows, and a diagnosis.
struct Incident {
    log: String,
    asks: &'static [&'static str],
    diagnosis: String,
    /// The file the assistant reads to confirm it.
    file: &'static str,
}

fn traceback(rng: &mut Rng, lines: usize) -> Incident {
    let (error, detail, frame, file, function, why) = *pick(
        rng,
        &[
            ("django.db.utils.OperationalError: deadlock detected", "DETAIL:  Process 18812 waits for ShareLock on transaction 99120; blocked by process 18790.", "stock = Stock.objects.select_for_update().get(sku=item.sku)", "orders/services/reserve.py", "reserve_items", "two transactions lock the same stock rows in a different order"),
            ("django.db.utils.IntegrityError: duplicate key value violates unique constraint \"orders_hold_order_id_sku_key\"", "DETAIL:  Key (order_id, sku)=(8812, SKU-4471) already exists.", "Hold.objects.create(order=order, sku=item.sku, qty=item.qty)", "orders/services/reserve.py", "reserve_items", "the client retries the reserve call and the second call inserts the same hold"),
            ("AttributeError: 'NoneType' object has no attribute 'currency'", "", "total = order.price_list.currency.round(total)", "orders/views.py", "order_detail", "orders imported from the old shop have no price list"),
            ("KeyError: 'sku'", "", "sku = line[\"sku\"]", "inventory/tasks.py", "sync_supplier_feed", "the supplier feed sends some lines with `SKU` in capitals"),
        ],
    );
    let mut seconds = 0;
    let mut log = vec![format!(
        "[2026-11-30 {} +0000] [41] [INFO] Booting worker with pid: 41",
        clock(rng, &mut seconds)
    )];
    let frames = [
        (
            "/usr/local/lib/python3.12/site-packages/django/core/handlers/exception.py",
            55,
            "inner",
            "response = get_response(request)",
        ),
        (
            "/usr/local/lib/python3.12/site-packages/django/core/handlers/base.py",
            197,
            "_get_response",
            "response = wrapped_callback(request, *callback_args, **callback_kwargs)",
        ),
        (
            "/usr/local/lib/python3.12/site-packages/rest_framework/views.py",
            509,
            "dispatch",
            "response = self.handle_exception(exc)",
        ),
        (
            "/app/orders/views.py",
            142,
            "reserve",
            "result = reserve_items(order)",
        ),
    ];
    let trace_len = frames.len() * 2 + 6;
    while log.len() + trace_len < lines {
        let time = clock(rng, &mut seconds);
        let status = if rng.usize(..12) == 0 { 500 } else { 200 };
        log.push(access_line(rng, &time, status));
    }
    log.push("Internal Server Error: /api/v1/orders/8812/reserve".to_string());
    log.push("Traceback (most recent call last):".to_string());
    for (path, line, func, code) in frames {
        log.push(format!("  File \"{path}\", line {line}, in {func}"));
        log.push(format!("    {code}"));
    }
    let at = rng.u32(60..200);
    log.push(format!("  File \"/app/{file}\", line {at}, in {function}"));
    log.push(format!("    {frame}"));
    log.push(error.to_string());
    if !detail.is_empty() {
        log.push(detail.to_string());
    }
    let time = clock(rng, &mut seconds);
    log.push(access_line(rng, &time, 500));
    let exception = error.split(':').next().unwrap_or(error);
    Incident {
        log: log.join("\n"),
        asks: &[
            "Reserving an order failed in staging again, here is the log:",
            "Got this 500 from the orders endpoint, any idea?",
            "Traceback from production, it happened twice in the last hour:",
        ],
        diagnosis: format!(
            "The request dies with `{exception}` at /app/{file}:{at}. It comes from `{frame}`: {why}. The other requests in the log are fine, so it is this one path, not the database as a whole."
        ),
        file,
    }
}

fn oom(rng: &mut Rng, lines: usize) -> Incident {
    let pod = format!(
        "orders-export-7d9f8c6b5-{}",
        (0..5).map(|_| rng.lowercase()).collect::<String>()
    );
    let restarts = rng.u32(3..30);
    let mut log = vec![
        format!("Name:             {pod}"),
        "Namespace:        orders".to_string(),
        "Priority:         0".to_string(),
        "Node:             ip-10-2-41-17.eu-central-1.compute.internal/10.2.41.17".to_string(),
        "Status:           Running".to_string(),
        "Containers:".to_string(),
        "  export:".to_string(),
        "    Image:          registry.internal/orders-api:2026.11.28-3".to_string(),
        "    State:          Running".to_string(),
        "    Last State:     Terminated".to_string(),
        "      Reason:       OOMKilled".to_string(),
        "      Exit Code:    137".to_string(),
        format!("    Restart Count:  {restarts}"),
        "    Limits:".to_string(),
        "      memory:  2Gi".to_string(),
        "    Requests:".to_string(),
        "      cpu:     500m".to_string(),
        "      memory:  1Gi".to_string(),
        "Events:".to_string(),
        "  Type     Reason      Age                From            Message".to_string(),
        format!("  Normal   Pulled      {}m (x{restarts} over 3h)  kubelet         Container image \"registry.internal/orders-api:2026.11.28-3\" already present on machine", rng.u32(1..9)),
        format!("  Warning  BackOff     {}m (x{} over 3h)  kubelet         Back-off restarting failed container export in pod {pod}", rng.u32(1..9), restarts * 3),
        "  Warning  OOMKilling  2m                 kernel-monitor  Memory cgroup out of memory: Killed process 3121 (python)".to_string(),
        String::new(),
        format!("$ kubectl -n orders logs {pod} --previous"),
    ];
    // The rows written grow to the 2Gi limit by the last line of the paste.
    let progress = lines.saturating_sub(log.len() + 1).max(1) as u32;
    let mut seconds = 0;
    for i in 1..=progress {
        let rows = 1_150_000 / progress * i - rng.u32(..1000);
        let time = clock(rng, &mut seconds);
        log.push(format!(
            "2026-11-30 {time} INFO exports.csv_export {rows}/1200000 rows written, rss={} MiB",
            180 + rows / 620
        ));
    }
    log.push("Killed".to_string());
    Incident {
        log: log.join("\n"),
        asks: &[
            "The export pod keeps restarting. kubectl describe says:",
            "The export job died again overnight:",
        ],
        diagnosis: format!(
            "It is OOMKilled with exit code 137 at the 2Gi limit, {restarts} restarts so far. The resident size grows with every batch of rows written, so the export holds what it wrote instead of streaming it."
        ),
        file: "exports/csv_export.py",
    }
}

fn bad_gateway(rng: &mut Rng, lines: usize) -> Incident {
    let mut seconds = 0;
    let mut log = Vec::new();
    let mut errors = 0;
    while log.len() < lines {
        let time = clock(rng, &mut seconds);
        match rng.usize(..4) {
            0 => {
                errors += 1;
                log.push(format!("2026/11/30 {time} [error] 31#31: *{} upstream prematurely closed connection while reading response header from upstream, client: 10.2.3.{}, server: api.orders.internal, request: \"GET /api/v1/orders?page={} HTTP/1.1\", upstream: \"http://10.2.9.17:8000/api/v1/orders\", host: \"api.orders.internal\"", rng.u32(10_000..99_999), rng.u8(2..250), rng.u8(1..9)));
            }
            1 => log.push(format!("[2026-11-30 {time} +0000] [{}] [INFO] Autorestarting worker after current request.", rng.u32(40..60))),
            2 => log.push(format!("[2026-11-30 {time} +0000] [{}] [INFO] Booting worker with pid: {}", rng.u32(1..3), rng.u32(100..900))),
            _ => log.push(access_line(rng, &time, 502)),
        }
    }
    Incident {
        log: log.join("\n"),
        asks: &[
            "Users see 502s every few minutes. nginx error log:",
            "A bunch of 502s in the ingress log, look:",
        ],
        diagnosis: format!(
            "{errors} of these are `upstream prematurely closed connection`, and each burst sits right next to gunicorn's `Autorestarting worker` lines. The app is not crashing; its workers go away while requests are in flight."
        ),
        file: "deploy/gunicorn.conf.py",
    }
}

fn celery(rng: &mut Rng, lines: usize) -> Incident {
    let mut seconds = 0;
    let mut log = Vec::new();
    let mut retries = 0;
    while log.len() + 1 < lines {
        let time = clock(rng, &mut seconds);
        let task = format!("{:08x}-{:04x}", rng.u32(..), rng.u16(..));
        match rng.usize(..3) {
            0 => log.push(format!("[2026-11-30 {time},{:03}: INFO/MainProcess] Task inventory.tasks.refresh_inventory[{task}] received", rng.u32(..1000))),
            1 => {
                retries += 1;
                log.push(format!("[2026-11-30 {time},{:03}: INFO/ForkPoolWorker-{}] Task inventory.tasks.refresh_inventory[{task}] retry: Retry in 30s: OperationalError('could not obtain lock on row in relation \"orders_stock\"')", rng.u32(..1000), rng.u8(1..9)));
            }
            _ => log.push(format!("[2026-11-30 {time},{:03}: INFO/ForkPoolWorker-{}] Task orders.tasks.send_confirmation[{task}] succeeded in {}.{:03}s: None", rng.u32(..1000), rng.u8(1..9), rng.u32(..3), rng.u32(..1000))),
        }
    }
    let time = clock(rng, &mut seconds);
    log.push(format!("[2026-11-30 {time},554: ERROR/ForkPoolWorker-3] Task inventory.tasks.refresh_inventory[5c1f0e2a-77d1] raised unexpected: MaxRetriesExceededError()"));
    Incident {
        log: log.join("\n"),
        asks: &[
            "The inventory refresh task keeps retrying, worker log below.",
            "celery is unhappy since this morning:",
        ],
        diagnosis: format!(
            "{retries} retries in this excerpt, all waiting for a row lock on orders_stock, and one task gave up with MaxRetriesExceededError. Something else holds those rows for a long time while the refresh runs."
        ),
        file: "inventory/tasks.py",
    }
}

fn ci(rng: &mut Rng, lines: usize) -> Incident {
    // GitHub Actions stamps each line in 100 ns ticks.
    let mut ticks: u64 = (9 * 3600 + 2 * 60 + 4) * 10_000_000;
    let mut stamp = |rng: &mut Rng, text: &str| {
        ticks += rng.u64(1_000..40_000_000);
        let s = ticks / 10_000_000;
        format!(
            "2026-11-30T{:02}:{:02}:{:02}.{:07}Z {text}",
            s / 3600,
            s / 60 % 60,
            s % 60,
            ticks % 10_000_000
        )
    };
    let runner = format!("Runner name: 'arm64-ubuntu-2404-{}'", rng.u8(1..12));
    let mut log = vec![
        stamp(rng, "Current runner version: '2.321.0'"),
        stamp(rng, &runner),
        stamp(rng, "##[group]Run pytest -q -n 4"),
    ];
    let tests = [
        "test_reserve",
        "test_views",
        "test_export",
        "test_webhooks",
        "test_tasks",
    ];
    while log.len() + 6 < lines {
        let progress = format!(
            "tests/{}.py {}",
            pick(rng, &tests),
            ".".repeat(rng.usize(20..60))
        );
        log.push(stamp(rng, &progress));
    }
    let passed = rng.u32(380..460);
    for line in [
        "=================================== FAILURES ===================================".to_string(),
        "____________________________ test_csv_export_large _____________________________".to_string(),
        "E       AssertionError: assert b'1.10' == b'1.1'".to_string(),
        "FAILED tests/test_export.py::test_csv_export_large - AssertionError: assert b'1.10' == b'1.1'".to_string(),
        format!("===== 1 failed, {passed} passed, 3 skipped in 208.44s (0:03:28) ====="),
        "##[error]Process completed with exit code 1.".to_string(),
    ] {
        log.push(stamp(rng, &line));
    }
    Incident {
        log: log.join("\n"),
        asks: &[
            "CI failed on main, only on one runner:",
            "The arm64 job is red again, log attached.",
        ],
        diagnosis: format!(
            "One failure against {passed} passes: test_csv_export_large compares `1.10` with `1.1`. That is a float formatting difference in the CSV writer, not a logic error."
        ),
        file: "exports/csv_export.py",
    }
}

fn too_many_clients(rng: &mut Rng, lines: usize) -> Incident {
    let mut seconds = 0;
    let mut log = Vec::new();
    while log.len() < lines {
        let time = clock(rng, &mut seconds);
        if rng.bool() {
            log.push(format!(
                "2026-11-30 {time}.{:03} UTC [{}] FATAL:  sorry, too many clients already",
                rng.u32(..1000),
                rng.u32(10_000..30_000)
            ));
        } else {
            log.push(format!("[2026-11-30 {time} +0000] [{}] [ERROR] psycopg2.OperationalError: connection to server at \"10.2.5.3\", port 5432 failed: FATAL:  sorry, too many clients already", rng.u32(40..60)));
        }
    }
    Incident {
        log: log.join("\n"),
        asks: &[
            "Postgres is refusing connections, here's what I see:",
            "DB errors since the deploy:",
        ],
        diagnosis: "Every line is the same refusal: the server is at its connection limit. No query errors, no locks, so it is the number of connections, not what they do.".to_string(),
        file: "orders/views.py",
    }
}

/// The person's deploy script with a comment over each step, then what it printed.
fn deploy_script(rng: &mut Rng, lines: usize) -> Incident {
    let replicas = rng.u8(2..6);
    let mut log: Vec<String> = [
        "#!/usr/bin/env bash",
        "set -euo pipefail",
        "",
        "# Colours for the steps",
        "GREEN='\\033[0;32m'",
        "RED='\\033[0;31m'",
        "NC='\\033[0m'",
        "",
        "# Where the service lives",
        "ROOT=\"$( cd \"$( dirname \"${BASH_SOURCE[0]}\" )/..\" && pwd )\"",
        "cd \"$ROOT\"",
        "",
        "# Refuse to deploy without the production settings",
        "if [ ! -f \"$ROOT/config/settings/production.py\" ]; then",
        "    echo -e \"${RED}No production settings found in config/settings, stopping here.${NC}\"",
        "    exit 1",
        "fi",
        "",
        "echo -e \"${GREEN}Building the image for orders-api...${NC}\"",
        "docker build -t registry.internal/orders-api:\"$TAG\" . > /tmp/build.log 2>&1",
        "docker push registry.internal/orders-api:\"$TAG\"",
        "",
        "# Migrate first, then roll the pods",
        "kubectl -n orders exec deploy/orders-api -- python manage.py migrate --noinput",
        "kubectl -n orders set image deploy/orders-api api=registry.internal/orders-api:\"$TAG\"",
        "kubectl -n orders rollout status deploy/orders-api --timeout=300s &",
        "ROLLOUT_PID=$!",
        "",
        "# Wait for the rollout and report",
        "wait $ROLLOUT_PID",
        "echo -e \"${GREEN}Deployed orders-api to production, all replicas are ready.${NC}\"",
        "",
    ]
    .iter()
    .map(|l| l.to_string())
    .collect();
    log.push("$ TAG=2026.11.30-1 ./scripts/deploy.sh".to_string());
    let mut seconds = 0;
    while log.len() + 2 < lines {
        let time = clock(rng, &mut seconds);
        log.push(format!(
            "deployment \"orders-api\" rollout: {} of {replicas} updated replicas are available ({time})",
            rng.u8(0..replicas)
        ));
    }
    log.push("error: timed out waiting for the condition".to_string());
    Incident {
        log: log.join("\n"),
        asks: &[
            "The deploy script hangs at the rollout, this is the script and what it printed:",
            "Deploying from my laptop fails, script and output below.",
        ],
        diagnosis: format!(
            "The migration runs against the old pods before the new image is rolled out, and the rollout waits for {replicas} replicas whose readiness probe needs the new schema. The script is fine up to there; the order of its two kubectl steps is the problem."
        ),
        file: "deploy/gunicorn.conf.py",
    }
}

fn log_turn(rng: &mut Rng, files: &[(&'static str, String)], kind: Option<Kind>) -> Turn {
    let lines = rng.usize(30..201);
    let kind = kind.unwrap_or_else(|| {
        *pick(
            rng,
            &[
                Traceback,
                OutOfMemory,
                BadGateway,
                Celery,
                Ci,
                TooManyClients,
                DeployScript,
            ],
        )
    });
    let incident = match kind {
        Traceback => traceback(rng, lines),
        OutOfMemory => oom(rng, lines),
        BadGateway => bad_gateway(rng, lines),
        Celery => celery(rng, lines),
        Ci => ci(rng, lines),
        TooManyClients => too_many_clients(rng, lines),
        DeployScript => deploy_script(rng, lines),
    };
    let id = format!("{:04x}", rng.u16(..));
    let outro = *pick(
        rng,
        &[
            "",
            "What's going on?",
            "Can you find the cause?",
            "Don't change anything yet, just tell me what you think.",
            "Is this the same thing as yesterday?",
        ],
    );
    let prompt = format!(
        "{}\n\n<pasted_content id=\"{id}\">\n{}\n</pasted_content id=\"{id}\">\n\n{outro}",
        pick(rng, incident.asks),
        incident.log
    );
    let mut turn = Turn::new(prompt);
    match files.iter().find(|(path, _)| *path == incident.file) {
        Some((path, text)) => {
            turn = turn.say_then_run(
                format!("Let me check {path}."),
                read_file(&format!("{ROOT}/{path}"), text),
            )
        }
        None => {
            turn = turn.run(bash(
                &format!("cat {}", incident.file),
                "Show the config",
                format!(
                    "bind = \"0.0.0.0:8000\"\nworkers = {}\nmax_requests = 1000\ntimeout = 30\naccesslog = \"-\"",
                    rng.u8(4..9)
                ),
                false,
            ))
        }
    }
    turn.answer(incident.diagnosis)
}

fn pytest(rng: &mut Rng, target: &str) -> crate::session::ToolRun {
    let passed = rng.u32(20..90);
    let mut out = String::from("============================= test session starts ==============================\nplatform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0\ndjango: version: 5.1.3, settings: config.settings.test (from ini)\nrootdir: /home/dev/orders-api\nconfigfile: pytest.ini\nplugins: django-4.9.0, xdist-3.6.1\n");
    out.push_str(&format!("collected {passed} items\n\n"));
    for file in [
        "tests/test_reserve.py",
        "tests/test_views.py",
        "tests/test_tasks.py",
    ] {
        out.push_str(&format!("{file} {}\n", ".".repeat(rng.usize(8..30))));
    }
    out.push_str(&format!("\n============================== {passed} passed in {}.{:02}s ==============================", rng.u32(3..40), rng.u32(..100)));
    bash(&format!("pytest -q {target}"), "Run the tests", out, false)
}

fn followup_turn(rng: &mut Rng, files: &[(&'static str, String)]) -> Turn {
    let (path, text) = pick(rng, files);
    let abs = format!("{ROOT}/{path}");
    match rng.usize(..4) {
        0 => Turn::new(*pick(rng, &["Apply the fix you suggested.", "OK, go ahead and fix it.", "Make that change."]))
            .run(read_file(&abs, text))
            .run(crate::filler::write_file(&abs, text))
            .run(pytest(rng, "tests/"))
            .answer(format!("Changed {path}. {}", routine_remark(rng))),
        1 => Turn::new(*pick(rng, &["Run the tests.", "Run pytest for that module.", "Do the tests still pass?"]))
            .run(pytest(rng, path))
            .answer(routine_remark(rng)),
        2 => Turn::new(format!("grep for logging calls in {path}"))
            .run(bash(
                &format!("grep -n \"log\\.\" {path}"),
                "Find log calls",
                text.lines()
                    .enumerate()
                    .filter(|(_, l)| l.contains("log."))
                    .map(|(i, l)| format!("{}:{l}", i + 1))
                    .collect::<Vec<_>>()
                    .join("\n"),
                false,
            ))
            .answer(format!("{path} logs at info and warning level only; nothing there would be noisy in production.")),
        _ => Turn::new(*pick(rng, &["Which pods are running right now?", "Is the deploy finished?", "Check the pods."]))
            .run(bash(
                "kubectl -n orders get pods",
                "List the pods",
                (0..rng.usize(4..9))
                    .map(|i| format!("orders-api-6c5d8b7f9-{i}x{:03}   1/1     Running   {}          {}h", rng.u32(..1000), rng.u8(..3), rng.u8(1..40)))
                    .collect::<Vec<_>>()
                    .join("\n"),
                false,
            ))
            .answer(format!("All pods are Running and ready. {}", routine_remark(rng))),
    }
}

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let files = sources(rng);
    let slots = fact_turns(n, &mut Vec::new());
    let facts = plant(&slots, &FACTS.map(|(by, sentence, _)| (by, sentence)));
    let turns = (0..n)
        .map(|i| match slots.iter().position(|&turn| turn == i) {
            // A fact goes with a paste, of the kind it is about.
            Some(fact) => log_turn(rng, &files, FACTS[fact].2),
            None if rng.usize(..5) < 3 => log_turn(rng, &files, None),
            None => followup_turn(rng, &files),
        })
        .collect();
    Session::new(ROOT, turns, facts, Vec::new(), rng)
}
