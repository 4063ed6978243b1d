//! Facts in the languages people work in, said without a label, as a remark among other
//! remarks: Spanish, German, Japanese, Korean, Chinese and English, by both speakers.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "harbor",
    name: "harbor-booking",
    dir: "",
    modules: &[
        "booking", "calendar", "payment", "notify", "pricing", "search", "review", "admin",
    ],
    nouns: &["booking", "slot", "guest", "payout"],
    dependencies: &[
        ("actix-web", "4.9.0"),
        ("diesel", "2.2.4"),
        ("chrono", "0.4.38"),
        ("lettre", "0.11.10"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "Ojo, las reservas se guardan siempre en UTC y solo se convierten a la zona del hotel al mostrarlas, porque el cambio de horario nos duplicó dos reservas en marzo."),
    (Assistant, "Die Zahlungen hingen, weil der Webhook von Stripe ohne Signaturprüfung verworfen wurde; jetzt prüft verify_webhook die Signatur mit dem Secret aus STRIPE_WEBHOOK_KEY."),
    (Person, "予約のキャンセル料は、チェックイン48時間前までは無料で、それ以降は1泊分を請求するというのがオーナーとの取り決めです。"),
    (Assistant, "검색이 느렸던 이유는 calendar 테이블에 (hotel_id, day) 인덱스가 없었기 때문이고, 인덱스를 추가한 뒤 응답 시간이 900ms에서 35ms로 줄었습니다."),
    (Person, "支付回调的日志里不能出现完整的卡号，只能保留后四位，这是上次安全审计提出的硬性要求，客服后台导出的报表和邮件通知也一样要遮住。"),
    (Assistant, "I switched the reminder emails from lettre's SMTP transport to the SES API, since the SMTP relay dropped about one mail in fifty during peaks."),
    (Person, "La tarifa de fin de semana es un 20 por ciento más alta, pero nunca se aplica a reservas corporativas con el código CORP."),
    (Assistant, "Für die Auszahlungen an Hotels gilt jetzt: höchstens eine Überweisung pro Tag und Hotel, gesammelt um 18:00 Uhr, damit die Bankgebühren sinken."),
    (Person, "レビューの投稿は宿泊した本人だけに許可して、チェックアウトから30日を過ぎたら投稿できないようにしてください。匿名の投稿は受け付けません。"),
    (Assistant, "관리자 화면의 CSV 내보내기는 아직 끝나지 않았습니다. 환불 내역 열을 추가하는 작업과 파일 인코딩을 UTF-8 BOM으로 바꾸는 작업이 남아 있습니다."),
    (Person, "we can't ship the new pricing page before Priya Raman from legal checks the cancellation wording, she asked for two working days."),
    (Assistant, "下一次部署之前还要把 notify 服务的重试队列从内存搬到 Redis，不然每次重启的时候都会丢掉那些还没发出去的入住提醒短信。"),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
