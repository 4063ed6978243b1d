//! End to end: the built app under X, driven over WebDriver by WebKitWebDriver itself, with a
//! store holding real captured sessions, and the real Claude Code CLI (against a scripted model
//! server) running `throughline hook claude` on the same store. Run it with `scripts/e2e` (it
//! builds the UI and the CLI and starts Xvfb and a D-Bus session); screenshots of the display
//! land in the folder it prints.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

// Shared with the command tests, which use all of it.
mod app_driver;
#[allow(dead_code)]
mod support;

// The real Claude Code CLI against a scripted model: the hook CLI's own test support.
#[allow(dead_code)]
#[path = "../../hook-cli/tests/support/claude.rs"]
mod claude;
#[allow(dead_code)]
#[path = "../../hook-cli/tests/support/model_server.rs"]
mod model_server;
#[allow(dead_code)]
#[path = "../../hook-cli/tests/support/pane.rs"]
mod pane;
#[allow(dead_code)]
#[path = "../../hook-cli/tests/support/tmux.rs"]
mod tmux;
// The desktop's notification server, played by the test.
#[allow(dead_code)]
mod notification_server;

use claude::{sh_quote, ClaudeEnv};
use model_server::{ModelServer, Script, Step, Usage};
use notification_server::NotificationServer;
use tmux::Tmux;

use app_driver::{
    click_when_there, fresh, screenshot, screenshots, text_when_there, type_when_there, wait_for,
};
use fantoccini::Locator;
use support::{capture, session_id, transcripts, SOON_AFTER};
use throughline_engine::home::Home;
use throughline_engine::install::{self, Scope};
use throughline_engine::plan::history;

/// The real session's prompt: it plants the fact the next chat must receive.
const DEPLOY_PROMPT: &str = "Remember: the deploy key lives at vault path secret/deploy-7731.";

/// What opens every memory Throughline injects.
const MEMORY_HEADING: &str = "# Throughline memory";

/// The `throughline` CLI built beside the app (`scripts/e2e` builds both).
fn hook_cli() -> PathBuf {
    let cli = Path::new(env!("CARGO_BIN_EXE_throughline-app")).with_file_name("throughline");
    assert!(
        cli.exists(),
        "{} is missing: run this test through scripts/e2e, which builds it",
        cli.display()
    );
    cli
}

fn desktop_entries(home: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(home.join(".config/autostart"))
        .map(|dir| dir.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "current_thread")]
async fn the_window_shows_live_sessions_and_settings() {
    let shots = screenshots();

    // The app and this test (which plays the hooks) share one frozen clock. This binary holds
    // this one test, so setting the process environment races with nothing.
    std::env::set_var(throughline_engine::clock::NOW_ENV, SOON_AFTER);
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path().join("throughline"));
    let transcripts = transcripts();
    capture(&home, &session_id(&transcripts[0]), &transcripts[0]);

    // A Claude Code installation whose hooks write the app's store; the app runs in its HOME,
    // so the threshold it writes lands in the settings this client reads.
    let server = ModelServer::start(
        Script::new()
            .on_prompt(
                DEPLOY_PROMPT,
                vec![Step::new().text(
                    "Noted: secret/deploy-7731.\n\n## Where it lives\n\n- **vault path**: \
                     `secret/deploy-7731`\n- read by `deploy.sh` only",
                )],
            )
            .fallback_text("Carrying on."),
    );
    let claude = ClaudeEnv::builder(&server)
        .hook_command(format!(
            "{} hook claude",
            sh_quote(&hook_cli().to_string_lossy())
        ))
        .env("THROUGHLINE_HOME", home.dir().to_string_lossy())
        .env(throughline_engine::clock::NOW_ENV, SOON_AFTER)
        .build();
    let user_home = claude.home.clone();

    // Owned before the app starts, so every notification it sends comes here.
    let notifications = NotificationServer::start();

    let (_driver, client) = app_driver::start(
        Path::new(env!("CARGO_BIN_EXE_throughline-app")),
        &[],
        &[
            ("THROUGHLINE_HOME", home.dir().as_os_str()),
            ("THROUGHLINE_NOW", SOON_AFTER.as_ref()),
            ("HOME", user_home.as_os_str()),
        ],
    )
    .await;

    // Sessions: one gauge per captured session, with the numbers from the store.
    wait_for(&client, "li.session").await;
    // A hook records another session while the window is open: it appears without a reload.
    let second = session_id(&transcripts[1]);
    capture(&home, &second, &transcripts[1]);
    wait_for(&client, &format!("li.session[data-session='{second}']")).await;
    for fixture in [session_id(&transcripts[0]), second] {
        let text = text_when_there(&client, &format!("li.session[data-session='{fixture}']")).await;
        assert!(text.contains("claude-opus-4-8"), "{text}");
        assert!(
            text.contains("/167k tokens before Claude Code compacts by itself"),
            "{text}"
        );
    }

    // A real Claude Code session, open in a terminal: its hooks capture it, its gauge appears.
    let mut terminal = Tmux::start(&claude);
    terminal.prompt(DEPLOY_PROMPT);
    let live = claude.session_ids()[0].clone();
    // Its card appears with the session's start; its gauge moves as soon as the client writes
    // the answer's usage to the transcript, before any hook reads it. The client runs its
    // default model, a 1M-context Opus (claude-opus-4-8[1m] on 2.1.197, claude-opus-5-5 on
    // 2.1.332 and later), which it compacts by itself 33k before the end of its window, and
    // 2.1.334 before the end of a window of 400k.
    let own_point_tokens: u64 = if claude::client_at_least("2.1.334") {
        367_000
    } else {
        967_000
    };
    let own_point = format!("/{}k", own_point_tokens / 1000);
    let card = format!("//li[@data-session='{live}'][contains(., 'claude-opus-')]");
    let (text, gauge) = fresh(&client, Locator::XPath(&card), async |card| {
        let gauge = card.find(Locator::Css("svg.gauge")).await?;
        Ok((card.text().await?, gauge.attr("aria-label").await?))
    })
    .await;
    assert!(
        text.contains(&format!(
            "{own_point} tokens before Claude Code compacts by itself"
        )),
        "{text}"
    );
    assert!(gauge.is_some());

    // One-click handoff: the button offers it and the view shows it waiting.
    let handoff = format!("//li[@data-session='{live}']//button[.='Hand off to a new chat']");
    fresh(&client, Locator::XPath(&handoff), async |button| {
        button.click().await
    })
    .await;
    let waiting = format!("li.session[data-session='{live}'] .handoff.waiting");
    let text = fresh(&client, Locator::Css(&waiting), async |waiting| {
        waiting.text().await
    })
    .await;
    assert!(text.contains("starts with this session's memory"), "{text}");
    screenshot(&shots, "sessions");

    // The project's next real chat takes the handoff: its first request to the model carries
    // the memory of the session handed off.
    let before = server.requests().len();
    claude
        .run_print("Carry on where we left off.")
        .expect_ok(&claude.debug_context());
    let first = server
        .requests()
        .into_iter()
        .skip(before)
        .find(|r| r.is_main())
        .expect("the next chat asked the model");
    assert!(
        first.messages_contain(MEMORY_HEADING),
        "no memory in the request"
    );
    assert!(
        first.messages_contain("secret/deploy-7731"),
        "the handed-off fact is missing"
    );

    // Injection log: it shows what that chat received.
    click_when_there(&client, "[data-view=injections]").await;
    let summary = text_when_there(&client, "li.injection").await;
    assert!(summary.contains("handoff"), "{summary}");
    // What it cost and saved: the handed-off session's last request beside the next chat's
    // first, drawn from the real requests.
    let account = text_when_there(&client, "figure.savings figcaption").await;
    assert!(
        account.starts_with("Last 7 days: 1 memory handed on, "),
        "{account}"
    );
    wait_for(&client, "svg.savings-chart rect.before").await;
    assert!(summary.contains(&live[..8]), "{summary}");
    click_when_there(&client, "li.injection summary").await;
    screenshot(&shots, "injections");

    memory_view_searches_previews_and_forgets(&client, &live, &shots).await;
    plan_usage_shows_both_windows(&client, &home, &notifications, &shots).await;
    own_compaction_notification(
        &client,
        &server,
        &mut terminal,
        &notifications,
        &live,
        own_point_tokens,
        &shots,
    )
    .await;

    // Settings: launch at login writes the autostart entry into the (temporary) HOME.
    click_when_there(&client, "[data-view=settings]").await;
    assert!(desktop_entries(&user_home).is_empty());
    click_when_there(&client, "#launch-at-login:enabled").await;
    wait_for(&client, "#launch-at-login:enabled:checked").await;
    let entries = desktop_entries(&user_home);
    assert_eq!(entries.len(), 1, "{entries:?}");
    let entry = std::fs::read_to_string(&entries[0]).unwrap();
    assert!(entry.contains("--hidden"), "{entry}");
    let budget = fresh(&client, Locator::Css("#budget"), async |b| {
        b.prop("value").await
    })
    .await;
    assert_eq!(budget.as_deref(), Some("9500"));

    // The auto-compact threshold goes into the client's settings, beside its hooks.
    let settings_json = user_home.join(".claude/settings.json");
    let read_settings = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(&settings_json).unwrap()).unwrap()
    };
    let hooks_before = read_settings()["hooks"].clone();
    type_when_there(&client, "#autocompact", "70").await;
    client
        .execute(
            "document.querySelector('#autocompact').dispatchEvent(new Event('change'))",
            vec![],
        )
        .await
        .unwrap();
    fresh(
        &client,
        Locator::XPath("//p[contains(., 'reaches 70% of the window')]"),
        async |shown| Ok(shown),
    )
    .await;
    let written = read_settings();
    assert_eq!(written["env"]["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"], "70");
    assert_eq!(written["hooks"], hooks_before, "the hooks are kept");
    screenshot(&shots, "settings");

    threshold_notification_hands_off(
        &client,
        &server,
        &mut terminal,
        &notifications,
        &live,
        &shots,
    )
    .await;

    installer_registers_the_bundled_cli(&client, &user_home, &shots).await;
    every_view_fits_at_every_size(&client, &shots).await;

    client.close().await.unwrap();
    terminal.exit();
}

/// Elements whose content is wider than they are and do not scroll it on purpose, named by
/// tag, class and the start of their text.
const OVERFLOWING: &str = "
    const wide = [];
    const page = document.documentElement;
    if (page.scrollWidth > page.clientWidth + 1) wide.push('the page');
    for (const e of document.querySelectorAll('main *')) {
        const style = getComputedStyle(e);
        if (style.display === 'none' || e.closest('svg')) continue;
        const scrolls = ['auto', 'scroll'].includes(style.overflowX);
        const ellipsised = style.textOverflow === 'ellipsis';
        if (!scrolls && !ellipsised && e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
            wide.push(`${e.tagName.toLowerCase()}.${e.className}: ${(e.textContent || '').slice(0, 60)}`);
    }
    return wide;";

/// Every view, on the real data the test stored, at the smallest size the window allows, its
/// default size and a large one: nothing is wider than its box (text cut off, or a sideways
/// scrollbar), except where scrolling is the point (a memory's text, a turn's output). Each
/// view at each size is in the screenshots.
async fn every_view_fits_at_every_size(client: &fantoccini::Client, shots: &Path) {
    let mut problems = Vec::new();
    for (width, height) in [(420, 320), (720, 520), (1280, 900)] {
        client.set_window_size(width, height).await.unwrap();
        for view in ["sessions", "memory", "injections", "settings", "installer"] {
            click_when_there(client, &format!("[data-view={view}]")).await;
            wait_for(client, "main > *").await;
            // Let the view's reads land and lay out.
            tokio::time::sleep(Duration::from_millis(400)).await;
            let wide = client.execute(OVERFLOWING, vec![]).await.unwrap();
            screenshot(shots, &format!("fit-{view}-{width}x{height}"));
            if wide != serde_json::json!([]) {
                problems.push(format!("{view} at {width}×{height}: {wide}"));
            }
        }
    }
    client.set_window_size(720, 520).await.unwrap();
    assert!(
        problems.is_empty(),
        "content wider than its box:\n{}",
        problems.join("\n")
    );
}

/// With no threshold set, the notification comes before the client compacts by itself: the
/// real session's next answer fills 95% of the way to the point where this release of the
/// client compacts (`own_point` tokens), short of it, so the client does not compact, and the
/// notification names that point. Then the context falls back, as after a compaction, so the
/// session may warn again.
async fn own_compaction_notification(
    client: &fantoccini::Client,
    server: &ModelServer,
    terminal: &mut Tmux<'_>,
    notifications: &NotificationServer,
    live: &str,
    own_point: u64,
    shots: &Path,
) {
    let hand_off = |n: &notification_server::Sent| n.actions.iter().any(|(id, _)| id == "hand-off");
    assert!(
        !notifications.sent().iter().any(hand_off),
        "{:#?}",
        notifications.sent()
    );
    // Two prompts in the conversation now.
    server.set_script(Script {
        usage: Usage::PerPrompt(own_point * 95 / 100 / 2),
        ..server.script()
    });
    terminal.prompt("Note the deploy steps so far.");
    click_when_there(client, "[data-view=sessions]").await;
    let full = format!("li.session[data-session='{live}'] svg.gauge.full");
    let percent = fresh(client, Locator::Css(&full), async |gauge| {
        gauge.find(Locator::Css("text")).await?.text().await
    })
    .await;
    let sent = notifications.wait_for(Duration::from_secs(30), hand_off);
    assert_eq!(sent.summary, format!("{percent} of the way to compaction"));
    let point = format!("/{}k)", own_point / 1000);
    assert!(sent.body.contains(&point), "{sent:?}");
    assert!(
        sent.body
            .contains("is close to Claude Code's own auto-compact at about")
            && sent.body.ends_with("of the window (no threshold set)."),
        "{sent:?}"
    );
    screenshot(shots, "own-compaction-notification");
    // The context falls back: three prompts of 1k.
    server.set_script(Script {
        usage: Usage::PerPrompt(1_000),
        ..server.script()
    });
    terminal.prompt("Start the next part.");
    wait_for(
        client,
        &format!("li.session[data-session='{live}'] svg.gauge:not(.full)"),
    )
    .await;
    // The client sent the next prompt from 95% of its own point without compacting: the
    // notification came before the compaction it warned of.
    assert!(
        server.compaction_requests().is_empty(),
        "the client compacted short of the point the notification named"
    );
    // Its warning no longer holds: the app takes the notification back.
    notifications.wait_for(Duration::from_secs(30), |n| n.id == sent.id && n.closed);
}

/// The threshold notification: with the person's threshold at 70% of the window, the real
/// session's next answer fills 94% of the way to it (the scripted model reports 660k tokens of
/// context), the app notifies with "Hand off now", and pressing it offers the session's memory
/// to the next new chat, as the card then says.
async fn threshold_notification_hands_off(
    client: &fantoccini::Client,
    server: &ModelServer,
    terminal: &mut Tmux<'_>,
    notifications: &NotificationServer,
    live: &str,
    shots: &Path,
) {
    let warned_of_compaction = || {
        notifications
            .sent()
            .into_iter()
            .filter(|n| n.summary.ends_with("of the way to compaction"))
            .count()
    };
    // One warning so far: before the client's own compaction, with no threshold set.
    assert_eq!(warned_of_compaction(), 1, "{:#?}", notifications.sent());
    // Four prompts in the conversation now: 4 × 165k of the 700k before compaction.
    server.set_script(Script {
        usage: Usage::PerPrompt(165_000),
        ..server.script()
    });
    terminal.prompt("Keep going with the deploy notes.");
    click_when_there(client, "[data-view=sessions]").await;
    // The card turns red, then the notification names the session and what its card says.
    let full = format!("li.session[data-session='{live}'] svg.gauge.full");
    wait_for(client, &full).await;
    let (percent, usage) = fresh(
        client,
        Locator::Css(&format!("li.session[data-session='{live}']")),
        async |card| {
            let percent = card
                .find(Locator::Css("svg.gauge text"))
                .await?
                .text()
                .await?;
            let usage = card.find(Locator::Css(".usage")).await?.text().await?;
            Ok((percent, usage))
        },
    )
    .await;
    let usage = usage
        .strip_suffix(" tokens of the 70% of the window before auto-compact")
        .unwrap_or_else(|| panic!("the gauge ignores the threshold: {usage}"))
        .to_string();
    assert!(usage.ends_with("/700k"), "{usage}");
    let sent = notifications.wait_for(Duration::from_secs(30), |n| {
        n.actions.iter().any(|(id, _)| id == "hand-off") && n.body.contains("at 70% of the window")
    });
    assert_eq!(sent.app_name, "Throughline");
    assert_eq!(sent.summary, format!("{percent} of the way to compaction"));
    assert!(
        sent.body.starts_with("Remember: the deploy key"),
        "{sent:?}"
    );
    assert!(
        sent.body.ends_with(&format!(
            "({usage}) is close to auto-compact at 70% of the window."
        )),
        "{sent:?}"
    );
    let actions: Vec<(&str, &str)> = sent
        .actions
        .iter()
        .map(|(id, label)| (id.as_str(), label.as_str()))
        .collect();
    assert_eq!(
        actions,
        [
            ("default", "Open Throughline"),
            ("hand-off", "Hand off now")
        ]
    );

    notifications.press(sent.id, "hand-off");
    let waiting = format!("li.session[data-session='{live}'] .handoff.waiting");
    let text = text_when_there(client, &waiting).await;
    assert!(text.contains("starts with this session's memory"), "{text}");
    screenshot(shots, "threshold-notification");
    // Once per crossing: the session stays red, and no second notification comes.
    assert_eq!(warned_of_compaction(), 2);
    let cancel = format!("//li[@data-session='{live}']//button[.='Cancel handoff']");
    fresh(client, Locator::XPath(&cancel), async |button| {
        button.click().await
    })
    .await;
}

/// Memory: the real session is listed, the library's search finds what it said and opens the
/// turn, the preview shows what a handoff would give, and forget removes a session after
/// asking.
/// What a person just opened is on screen: `css` starts above the window's bottom edge and
/// ends below its top.
async fn in_view(client: &fantoccini::Client, css: &str) {
    let seen = client
        .execute(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();
             return r.top < innerHeight && r.bottom > 0;",
            vec![css.into()],
        )
        .await
        .unwrap();
    assert_eq!(seen, serde_json::json!(true), "{css} opened out of view");
}

/// Nothing in the view as it is now is wider than its box, as [`every_view_fits_at_every_size`]
/// holds the views as they first open.
async fn fits(client: &fantoccini::Client, what: &str) {
    let wide = client.execute(OVERFLOWING, vec![]).await.unwrap();
    assert_eq!(
        wide,
        serde_json::json!([]),
        "{what}: content wider than its box"
    );
}

async fn memory_view_searches_previews_and_forgets(
    client: &fantoccini::Client,
    live: &str,
    shots: &Path,
) {
    click_when_there(client, "[data-view=memory]").await;
    wait_for(client, &format!("li.stored[data-session='{live}']")).await;
    type_when_there(client, "#memory-search", "deploy-7731").await;
    // A search beside a hook that holds the store leaves what it stored moments ago for the
    // next search, or says what failed: a person would search again.
    let mut answer = String::new();
    for _ in 0..10 {
        click_when_there(client, ".memory-view .search button[type=submit]").await;
        answer = text_when_there(
            client,
            ".memory-view .hit, .memory-view .empty, .memory-view .problem",
        )
        .await;
        if !answer.starts_with("Nothing stored matches") && !answer.starts_with("Could not") {
            break;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    assert!(!answer.starts_with("Could not"), "{answer}");
    let said = text_when_there(client, ".hit").await;
    assert!(said.contains("deploy-7731"), "{said}");
    click_when_there(client, ".hit .open-turn").await;
    let text = text_when_there(client, ".opened .turn").await;
    assert!(text.contains("vault path secret/deploy-7731"), "{text}");
    in_view(client, ".opened .turn").await;
    // The agent's answer reads as the markdown it wrote.
    let heading = text_when_there(client, ".opened .turn .message.assistant .md h5").await;
    assert_eq!(heading, "Where it lives");
    screenshot(shots, "memory-search");

    // A session's row selects it and opens its turns; what else can be done with it is in the
    // header of the pane beside the list.
    click_when_there(
        client,
        &format!("li.stored[data-session='{live}'] .open-session"),
    )
    .await;
    wait_for(client, &format!(".opened .turns-of[data-session='{live}']")).await;
    click_when_there(client, ".opened .pane-header .preview").await;
    let text = text_when_there(client, ".opened .preview pre").await;
    assert!(text.starts_with(MEMORY_HEADING), "{text}");
    assert!(text.contains("secret/deploy-7731"), "{text}");
    in_view(client, ".opened .preview pre").await;
    screenshot(shots, "memory-preview");
    fits(client, "the handoff preview").await;

    // A session's turns open under the picture of its context over its requests (the fixture
    // of thirteen requests).
    let drawn_session = session_id(&transcripts()[1]);
    click_when_there(
        client,
        &format!("li.stored[data-session='{drawn_session}'] .open-session"),
    )
    .await;
    let caption = text_when_there(client, ".opened .turns-of figure.context figcaption").await;
    assert!(
        caption.starts_with("Context per request: peak "),
        "{caption}"
    );
    let drawn = wait_for(client, ".opened .turns-of svg.context-chart polyline.used")
        .await
        .attr("points")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(drawn.split(' ').count() >= 2, "{drawn}");
    client
        .execute(
            "document.querySelector('figure.context').scrollIntoView()",
            vec![],
        )
        .await
        .unwrap();
    screenshot(shots, "memory-context");
    fits(client, "the turns of a session with their chart").await;

    // One of its turns with tool calls opens where it can be seen, each call named by what it
    // did and its input as names and values: no JSON as stored.
    client
        .execute(
            "[...document.querySelectorAll('.turns-of li')]
                 .find((li) => /Bash|Edit|Write|Read/.test(li.textContent))
                 .querySelector('.open-turn').click()",
            vec![],
        )
        .await
        .unwrap();
    let titles = text_when_there(client, ".opened .turn .step-title").await;
    assert!(!titles.contains("tool_call"), "{titles}");
    in_view(client, ".opened .turn").await;
    let inputs = client
        .execute(
            "return [...document.querySelectorAll('.opened .turn pre.input')].map((e) => e.textContent)",
            vec![],
        )
        .await
        .unwrap();
    let inputs: Vec<String> = serde_json::from_value(inputs).unwrap();
    assert!(!inputs.is_empty(), "no tool input shown");
    for input in &inputs {
        assert!(
            !input.trim_start().starts_with('{')
                && !input.contains("\\n")
                && !input.contains("\\\""),
            "a tool input shown as JSON: {input}"
        );
    }
    screenshot(shots, "memory-turn");
    fits(client, "a turn with tool calls").await;

    // Forget asks first; the fixture session recorded before the window opened goes.
    let fixture = session_id(&transcripts()[0]);
    click_when_there(
        client,
        &format!("li.stored[data-session='{fixture}'] .open-session"),
    )
    .await;
    wait_for(
        client,
        &format!(".opened .turns-of[data-session='{fixture}']"),
    )
    .await;
    click_when_there(client, ".opened .pane-header .forget").await;
    let asked = text_when_there(client, ".forget-confirm").await;
    assert!(asked.contains("search index"), "{asked}");
    in_view(client, ".forget-confirm").await;
    screenshot(shots, "memory-forget");
    fits(client, "the question before forgetting").await;
    click_when_there(client, "#forget-confirm").await;
    wait_for(client, ".memory-view .notice").await;
    assert!(client
        .find(Locator::Css(&format!(
            "li.stored[data-session='{fixture}']"
        )))
        .await
        .is_err());
}

/// Plan usage: the statusline, given the `rate_limits` block Claude Code sends subscribers,
/// records it; the Sessions view shows both windows with their countdowns.
async fn plan_usage_shows_both_windows(
    client: &fantoccini::Client,
    home: &Home,
    notifications: &NotificationServer,
    shots: &Path,
) {
    use std::io::Write;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // What the client reported earlier: this five-hour window two hours and 55 minutes ago,
    // the week three days and one day ago, and a five-hour window that reached its limit.
    let window = |used: f64, resets_at: u64| {
        Some(throughline_engine::plan::Window {
            used_percentage: used,
            resets_at: Some(resets_at),
        })
    };
    let (five_resets, week_resets) = (now + 2 * 3600 + 10 * 60, now + 3 * 86_400 + 30 * 60);
    let earlier = [
        (
            now - 6 * 3600,
            window(100.0, now - 3 * 3600),
            window(80.0, week_resets),
        ),
        (now - 3 * 86_400, None, window(40.0, week_resets)),
        // Ten minutes inside the day the burn rate looks back over, so the seconds the test
        // takes before the app reads it do not push it out.
        (now - 86_400 + 600, None, window(70.0, week_resets)),
        (
            now - 2 * 3600,
            window(10.0, five_resets),
            window(85.0, week_resets),
        ),
        (
            now - 55 * 60,
            window(25.0, five_resets),
            window(88.0, week_resets),
        ),
    ];
    let history: String = earlier
        .into_iter()
        .map(|(at, five_hour, seven_day)| {
            let report = history::Report {
                at,
                usage: throughline_engine::plan::PlanUsage {
                    five_hour,
                    seven_day,
                },
            };
            serde_json::to_string(&report).unwrap() + "\n"
        })
        .collect();
    std::fs::write(history::path(home), history).unwrap();
    let payload = serde_json::json!({
        "session_id": "plan-check",
        "rate_limits": {
            "five_hour": {"used_percentage": 42, "resets_at": five_resets},
            "seven_day": {"used_percentage": 91, "resets_at": week_resets},
        },
    });
    let mut statusline = Command::new(hook_cli())
        .arg("statusline")
        .env("THROUGHLINE_HOME", home.dir())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    statusline
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    assert!(statusline.wait().unwrap().success());
    click_when_there(client, "[data-view=sessions]").await;
    let said = text_when_there(client, ".plan [data-window=five_hour] .value").await;
    assert!(said.starts_with("42% · resets in 2h "), "{said}");
    let week = fresh(
        client,
        Locator::Css(".plan [data-window=seven_day] .bar.full"),
        async |bar| bar.attr("aria-valuenow").await,
    )
    .await;
    assert_eq!(week.as_deref(), Some("91"));
    let warning = text_when_there(client, ".plan .plan-warning").await;
    assert_eq!(
        warning,
        "A notification warns when a window reaches 80% (Settings)."
    );
    // The seven-day window is past the 80% warned at by default; the five-hour one is not.
    let sent = notifications.wait_for(Duration::from_secs(30), |n| {
        n.summary == "7-day plan limit 91% used"
    });
    assert!(sent.body.contains("passed the 80% you set"), "{sent:?}");
    // Each window over time, from the reports recorded before and this one.
    let five = text_when_there(
        client,
        ".plan figure.plan-outlook[data-window='5-hour'] figcaption",
    )
    .await;
    // 2h50m of five hours gone; from 25% to 42% in the last 55 minutes lasts the 2h10m left.
    assert!(
        five.starts_with(
            "5-hour: 42% used, behind an even pace (57% by now). At the last hour's rate ("
        ) && five.contains("% an hour) it lasts until it resets"),
        "{five}"
    );
    let week = text_when_there(
        client,
        ".plan figure.plan-outlook[data-window='7-day'] figcaption",
    )
    .await;
    // From 70% to 91% in a day: the 9% left go in about ten hours, days before the reset.
    assert!(
        week.starts_with("7-day: 91% used, ahead of an even pace (57% by now). At the last day's rate (0.9% an hour) the limit is reached "),
        "{week}"
    );
    // This window went to the real sessions of the test's project.
    wait_for(client, ".plan .window-use li .name").await;
    let shown = client
        .execute(
            "const name = document.querySelector('.plan .window-use li .name');
             name.scrollIntoView();
             return name.textContent;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(shown, "project");
    let hit = text_when_there(client, ".plan .limit-hits li").await;
    assert!(
        hit.starts_with("5-hour limit reached") && hit.ends_with("3h 00m before it reset"),
        "{hit}"
    );
    assert!(
        !notifications
            .sent()
            .iter()
            .any(|n| n.summary.starts_with("5-hour")),
        "{:#?}",
        notifications.sent()
    );
    screenshot(shots, "plan-usage");
}

/// Installer: Install registers the CLI bundled next to the app in Claude Code's settings of
/// the (temporary) HOME, and the view says so.
async fn installer_registers_the_bundled_cli(
    client: &fantoccini::Client,
    user_home: &Path,
    shots: &Path,
) {
    click_when_there(client, "[data-view=installer]").await;
    wait_for(client, ".installer .status.absent").await;
    click_when_there(client, "#install:enabled").await;
    let said = text_when_there(client, ".installer .status.registered").await;
    assert!(said.contains("run the bundled CLI"), "{said}");

    // What the app wrote, read back by the library as `throughline doctor` reads it.
    let registration = registration_in(user_home);
    assert_eq!(
        registration.settings,
        user_home.join(".claude/settings.json")
    );
    assert!(registration.missing.is_empty(), "{registration:?}");
    let bundled = Path::new(env!("CARGO_BIN_EXE_throughline-app"))
        .with_file_name("throughline")
        .canonicalize()
        .unwrap();
    assert!(
        registration
            .hooks
            .iter()
            .all(|hook| hook.binary.as_deref() == Some(bundled.as_path())),
        "{registration:?}"
    );
    let report = text_when_there(client, ".installer .report").await;
    assert!(report.contains("Install changed"), "{report}");
    screenshot(shots, "installer");

    // The doctor's findings for the bundled CLI agree, each with its status.
    let hooks = wait_for(client, ".doctor [data-check=hooks].ok").await;
    client
        .execute(
            "arguments[0].scrollIntoView()",
            vec![serde_json::to_value(&hooks).unwrap()],
        )
        .await
        .unwrap();
    screenshot(shots, "installer-doctor");

    // Uninstall asks first, then removes exactly what Install added.
    click_when_there(client, "#uninstall:enabled").await;
    click_when_there(client, "#remove").await;
    wait_for(client, ".installer .status.absent").await;
    let registration = registration_in(user_home);
    assert!(registration.hooks.is_empty(), "{registration:?}");
}

/// Throughline's registration in Claude Code's user settings under `user_home`.
fn registration_in(user_home: &Path) -> install::Registration {
    let own_home = std::env::var_os("HOME");
    std::env::set_var("HOME", user_home);
    std::env::remove_var("CLAUDE_CONFIG_DIR");
    let registration =
        install::inspect(throughline_engine::hosts::claude::HOST, &Scope::User).unwrap();
    if let Some(own) = own_home {
        std::env::set_var("HOME", own);
    }
    registration
}
