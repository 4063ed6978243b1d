//! Coding work talked about in Chinese and in Japanese, a few turns in one and then the other,
//! with English identifiers; the facts are Chinese and Japanese sentences.

use fastrand::Rng;

use crate::filler::{clippy, git_log, pick, Codebase, Project};
use crate::session::{fact_turns, plant, Said, Session, Speaker::*, Turn};

const PROJECT: Project = Project::shop("kakeibo");

#[derive(Clone, Copy, PartialEq)]
enum Language {
    Chinese,
    Japanese,
}

use Language::*;

/// The facts in order of their turns, the language alternating so that both are early, in
/// the middle and late.
const FACTS: [Said; 12] = [
    (Person, "决定：开发服务器只用 8443 端口，因为公司防火墙屏蔽了 8080，本地、预发布环境和 CI 的配置都要跟着一起改过来。"),
    (Person, "決定事項：本番環境のログレベルは INFO のままにしてください。DEBUG にすると、先月のようにログの保存料金が倍になります。"),
    (Assistant, "根本原因找到了：test_merge_chain 偶尔失败，是因为 created_at 用本地时间写入而不是 UTC，跨过零点的时候顺序就乱了。"),
    (Assistant, "原因が分かりました：sync_inventory が在庫の行を逆の順番でロックしているので、reserve_items とデッドロックを起こしていました。"),
    (Person, "数据库迁移脚本必须先在预发布环境完整地跑一遍，由 DBA 王磊确认没有任何一张表被锁住超过 5 秒之后，才能在生产环境执行。"),
    (Person, "リリース前のレビューは必ず佐藤さんにお願いします。決済まわりの変更は、彼女の承認がないとマージできない決まりになっています。"),
    (Assistant, "结论：商品价格缓存的过期时间定为 900 秒，如果再长，价格更新就要等太久才能生效，运营团队那边已经确认同意这个数值了。"),
    (Assistant, "決定：銀行に送るバッチのサイズは 1750 件に固定します。銀行側のシステムが、それより大きいファイルをすべて拒否するためです。"),
    (Person, "以后所有金额一律用整数的分来存，不要再用浮点数了，上个月月底对账的时候差了 0.03 元，最后查下来就是浮点误差造成的。"),
    (Person, "問題が起きたらタグ v3.14.2 にロールバックしてください。v3.15.0 には、まだ移行スクリプトの不具合が残っています。"),
    (Assistant, "下一步：给 import_orders 加上重试，最多重试 5 次，每次间隔翻倍，上限是 32 秒，超过之后就把消息写进死信队列。"),
    (Assistant, "次のステップ：フィーチャーフラグ FAST_CHECKOUT は本番ではオフのままにして、ステージングで一週間様子を見ます。"),
];

/// A routine result said again and again.
fn remark(rng: &mut Rng, language: Language) -> &'static str {
    let said: &[&'static str] = match language {
        Chinese => &[
            "测试通过。",
            "全部测试都通过了。",
            "决定：先保持现在的做法。",
            "没有别的改动。",
            "构建是绿的。",
            "好，这部分就这样定了。",
        ],
        Japanese => &[
            "テストは通りました。",
            "テストは全部通っています。",
            "決定：今のやり方のままにします。",
            "ほかに変更はありません。",
            "ビルドは成功しています。",
            "これで問題ありません。",
        ],
    };
    pick::<&str>(rng, said)
}

fn turn(rng: &mut Rng, code: &Codebase, language: Language) -> Turn {
    let (module, f) = code.function(rng);
    let (m, name, path, noun) = (module.name, f.name.as_str(), module.path.as_str(), f.noun);
    let zh = language == Chinese;
    match rng.usize(..8) {
        0 => {
            let ask = match (zh, rng.bool()) {
                (true, true) => format!("帮我看一下 {path}，{name} 是做什么的？"),
                (true, false) => format!("{name} 在 {noun} 为空的时候会怎么样？"),
                (false, true) => {
                    format!("{path} を読んで、{name} が何をしているか教えてください。")
                }
                (false, false) => format!("{name} は {noun} が空のときどうなりますか？"),
            };
            let answer = if zh {
                format!("`{name}` 的逻辑很直接：先检查输入，再按 id 处理 {noun}，出错时返回 Error，不会 panic。")
            } else {
                format!("`{name}` は入力を確認してから {noun} を id ごとに処理します。失敗したときは Error を返し、panic はしません。")
            };
            Turn::new(ask).run(code.read(module)).answer(answer)
        }
        1 => {
            let ask = if zh {
                format!("{name} 在哪些地方被调用？")
            } else {
                format!("{name} の呼び出し元を全部探してください。")
            };
            let grep = code.grep(rng, name);
            let callers = grep.output.lines().count().saturating_sub(1);
            let answer = if zh {
                format!("除了 {path} 里的定义，还有 {callers} 处调用，都不会传入空的 {noun}。")
            } else {
                format!("{path} の定義のほかに {callers} か所から呼ばれています。どれも空の {noun} は渡していません。")
            };
            Turn::new(ask).run(grep).answer(answer)
        }
        2 => {
            let ask = match (zh, rng.bool()) {
                (true, true) => format!("跑一下 {m} 的测试。"),
                (true, false) => "再跑一遍测试吧。".to_string(),
                (false, true) => format!("{m} のテストを実行してください。"),
                (false, false) => "もう一度テストを回してください。".to_string(),
            };
            let tests = module.tests.len();
            let answer = if zh {
                format!("{m} 的 {tests} 个测试全部通过。{}", remark(rng, language))
            } else {
                format!(
                    "{m} のテスト {tests} 件はすべて成功しました。{}",
                    remark(rng, language)
                )
            };
            Turn::new(ask)
                .run(code.cargo_test(rng, module, None))
                .answer(answer)
        }
        3 => {
            let test = pick(rng, &module.tests).clone();
            let (ask, answer) = if zh {
                (
                    format!("{test} 挂了，帮我看看。"),
                    format!("测试期望跳过已归档的 {noun}，但是代码在检查状态之前就做了映射。加上状态过滤之后，{test} 已经通过了。"),
                )
            } else {
                (
                    format!("{test} が落ちています。直せますか？"),
                    format!("テストはアーカイブ済みの {noun} が除外されることを期待していましたが、状態を確認する前に変換していました。状態で絞り込むように直したので、{test} は通るようになりました。"),
                )
            };
            code.fix_test(rng, Turn::new(ask), module, f, &test)
                .answer(answer)
        }
        4 => {
            let (ask, answer) = if zh {
                (
                    format!("在 {name} 出错的时候加一行日志。"),
                    format!(
                        "在 {name} 里加了 `tracing::debug!`，只有 RUST_LOG=debug 的时候才会输出。"
                    ),
                )
            } else {
                (
                    format!("{name} がエラーを返したときにログを出すようにしてください。"),
                    format!("{name} に `tracing::debug!` を追加しました。RUST_LOG=debug のときだけ出力されます。"),
                )
            };
            Turn::new(ask)
                .run(code.read(module))
                .run(code.edit(
                    path,
                    "    Ok(())",
                    &format!("    tracing::debug!(\"{name} done\");\n    Ok(())"),
                ))
                .answer(answer)
        }
        5 => {
            let (run, warnings) = clippy(rng, code);
            let answer = match (zh, warnings) {
                (true, 0) => "clippy 没有任何警告。".to_string(),
                (true, k) => format!("有 {k} 个 `if_same_then_else` 警告，都在今天没动过的代码里，先不管。"),
                (false, 0) => "clippy の警告はありません。".to_string(),
                (false, k) => format!("`if_same_then_else` の警告が {k} 件ありますが、今日触っていないコードなのでそのままにします。"),
            };
            Turn::new(if zh {
                "跑一下 clippy。"
            } else {
                "clippy をかけてください。"
            })
            .run(run)
            .answer(answer)
        }
        6 => {
            let answer = if zh {
                "主要是一些小修复和测试，没有动数据库结构。"
            } else {
                "ほとんどが小さな修正とテストで、スキーマには触れていません。"
            };
            Turn::new(if zh {
                "昨天之后都改了什么？"
            } else {
                "最近のコミットを見せてください。"
            })
            .run(git_log(rng, code))
            .answer(format!("{answer}{}", remark(rng, language)))
        }
        _ => {
            let (ask, answer) = if zh {
                (
                    format!("{name} 可以在多线程里调用吗？"),
                    format!("`{name}` 自己不持有状态，所以关键在于调用方传进来的东西；我建议保持现在的签名。"),
                )
            } else {
                (
                    format!("{name} はスレッドセーフですか？"),
                    format!("`{name}` は自分では状態を持たないので、問題は呼び出し側が何を渡すかだけです。シグネチャは今のままでいいと思います。"),
                )
            };
            Turn::new(ask).answer(answer)
        }
    }
}

fn language_of(sentence: &str) -> Language {
    // Kana appear only in Japanese.
    if sentence
        .chars()
        .any(|c| ('\u{3040}'..='\u{30ff}').contains(&c))
    {
        Japanese
    } else {
        Chinese
    }
}

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let code = Codebase::new(rng, &PROJECT);
    let slots = fact_turns(n, &mut Vec::new());
    let facts = plant(&slots, &FACTS);
    let mut language = Chinese;
    let mut left_in_run = 0;
    let turns = (0..n)
        .map(|i| {
            if left_in_run == 0 {
                language = if language == Chinese {
                    Japanese
                } else {
                    Chinese
                };
                left_in_run = rng.usize(4..11);
            }
            left_in_run -= 1;
            // A fact is said in its own language, whatever the turns around it use.
            let spoken = match facts.iter().find(|f| f.turn == i) {
                Some(fact) => language_of(fact.sentence),
                None => language,
            };
            turn(rng, &code, spoken)
        })
        .collect();
    Session::new(&code.root, turns, facts, Vec::new(), rng)
}
