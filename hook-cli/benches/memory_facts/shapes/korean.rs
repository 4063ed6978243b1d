//! Coding work talked about in Korean, with English identifiers: the facts are Korean
//! sentences, said by the person and the assistant, beside routine remarks that sound like
//! decisions ("결정: 당분간 지금 방식을 유지합니다.").

use fastrand::Rng;

use crate::filler::{Codebase, Project};
use crate::phrased::{phrased_turn, Phrases};
use crate::session::{fact_turns, plant, Said, Session, Speaker::*};

const PROJECT: Project = Project::shop("gagyebu");

const FACTS: [Said; 12] = [
    (Person, "회사 방화벽이 8080을 막고 있어서 개발 서버는 반드시 8443 포트를 써야 해요."),
    (Assistant, "원인을 찾았습니다: created_at을 UTC가 아니라 로컬 시간으로 저장해서 자정을 넘기면 test_merge_chain의 순서가 뒤바뀝니다."),
    (Person, "결제 관련 변경은 김지수 님의 리뷰 없이는 절대 main에 머지하지 마세요."),
    (Assistant, "은행 시스템이 더 큰 파일을 거부하기 때문에 은행으로 보내는 배치 크기는 1750건으로 고정했습니다."),
    (Person, "마이그레이션은 스테이징에서 먼저 돌리고, DBA가 5초 넘게 잠긴 테이블이 없다고 확인한 뒤에만 운영에 적용해 주세요."),
    (Assistant, "데드락은 sync_inventory가 재고 행을 reserve_items와 반대 순서로 잠그기 때문에 생긴 것이었습니다."),
    (Person, "금액은 앞으로 전부 정수 센트로 저장하고 float는 쓰지 마세요, 지난달 정산에서 0.03원 차이가 났던 게 바로 그 때문이에요."),
    (Assistant, "가격 캐시 TTL은 900초로 정했습니다; 더 길면 영업팀이 낮에 바꾼 가격이 너무 늦게 반영됩니다."),
    (Person, "운영에서 문제가 생기면 v3.14.2 태그로 롤백하세요, v3.15.0에는 아직 마이그레이션 스크립트 버그가 남아 있어요."),
    (Assistant, "다음 단계: import_orders에 재시도를 넣어서 최대 5번까지 간격을 두 배씩 늘리고, 32초를 넘으면 데드레터 큐로 보냅니다."),
    (Person, "FAST_CHECKOUT 플래그는 스테이징에서 일주일 동안 오류 없이 돌 때까지 운영에서는 꺼 둔 채로 두세요."),
    (Assistant, "운영 로그 레벨은 INFO로 유지합니다; DEBUG로 바꿨던 지난달에 로그 저장 비용이 두 배가 됐습니다."),
];

const KOREAN: Phrases = Phrases {
    explain: [
        "{path} 읽어보고 {name}이 뭘 하는지 알려줘.",
        "{noun}가 비어 있으면 {name}은 어떻게 동작해?",
    ],
    explained: "`{name}`은 입력을 먼저 검사한 뒤 {noun}를 id별로 처리합니다. 실패하면 Error를 돌려주고 panic은 하지 않습니다.",
    callers: "{name} 호출하는 곳 전부 찾아줘.",
    called: "{path}의 정의 말고 호출하는 곳이 {n}군데 있습니다. 빈 {noun}를 넘기는 곳은 없습니다.",
    run_tests: "{m} 테스트 돌려줘.",
    passed: "{m} 테스트 {n}개 모두 통과했습니다.",
    failing: "{test}가 실패하는데 봐줄래?",
    fixed: "테스트는 보관된 {noun}가 제외되기를 기대했는데, 상태를 확인하기 전에 변환하고 있었습니다. 상태로 거르도록 고쳐서 이제 {test}가 통과합니다.",
    add_log: "{name}이 실패할 때 로그 한 줄 남겨줘.",
    logged: "{name}에 `tracing::debug!`를 추가했습니다. RUST_LOG=debug일 때만 출력됩니다.",
    lint: "clippy 아직 깨끗해?",
    lint_clean: "clippy 경고는 없습니다.",
    lint_warnings: "`if_same_then_else` 경고가 {n}개 있는데, 오늘 건드리지 않은 코드라서 그대로 두겠습니다.",
    commits: "지금까지 뭘 커밋했지?",
    committed: "대부분 작은 수정과 테스트이고, 스키마는 건드리지 않았습니다.",
    threads: "{name}을 두 스레드에서 불러도 돼?",
    threads_answer: "`{name}`은 자기 상태를 갖지 않아서 호출하는 쪽이 뭘 넘기느냐만 중요합니다. 시그니처는 지금 그대로 두는 게 좋겠습니다.",
    remarks: [
        "테스트는 통과합니다.",
        "결정: 당분간 지금 방식을 유지합니다.",
        "다른 변경은 없습니다.",
        "빌드는 성공했습니다.",
        "좋습니다, 이 부분은 정리됐습니다.",
        "중요: 푸시하기 전에 전체 테스트를 돌려 주세요.",
    ],
};

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let code = Codebase::new(rng, &PROJECT);
    let facts = plant(&fact_turns(n, &mut Vec::new()), &FACTS);
    let turns = (0..n).map(|_| phrased_turn(rng, &code, &KOREAN)).collect();
    Session::new(&code.root, turns, facts, Vec::new(), rng)
}
