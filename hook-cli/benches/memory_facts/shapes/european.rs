//! Coding work talked about in Spanish, French, German, Italian and Portuguese, a run of turns
//! in one and then another, with English identifiers; each fact is a sentence in one of them,
//! some labelled ("Próximo passo: …"), most not, beside routine remarks that sound like
//! decisions ("Decisión: mantener el enfoque actual por ahora.").

use fastrand::Rng;

use crate::filler::{pick, Codebase, Project};
use crate::phrased::{phrased_turn, Phrases};
use crate::session::{fact_turns, plant, Said, Session, Speaker::*};

const PROJECT: Project = Project::shop("tienda");

#[derive(Clone, Copy, PartialEq)]
enum Language {
    Spanish,
    French,
    German,
    Italian,
    Portuguese,
}

use Language::*;

const LANGUAGES: [Language; 5] = [Spanish, French, German, Italian, Portuguese];

/// The facts in order of their turns, and the language each is said in.
const FACTS: [(Language, Said); 12] = [
    (Spanish, (Person, "El servidor de desarrollo tiene que usar el puerto 8443, porque el cortafuegos de la empresa bloquea el 8080 y no lo van a abrir.")),
    (French, (Assistant, "La cause du test instable test_merge_chain est trouvée : created_at était écrit en heure locale au lieu de UTC, donc l'ordre s'inverse après minuit.")),
    (German, (Person, "Bitte niemals direkt auf main pushen, jede Änderung an der Abrechnung braucht vorher ein Review von Frau Weber.")),
    (Italian, (Assistant, "Ho fissato la dimensione dei lotti per la banca a 1750 righe, perché il loro sistema rifiuta i file più grandi.")),
    (Portuguese, (Person, "As migrações do banco precisam rodar primeiro no staging, e só vão para produção depois que o DBA confirmar que nenhuma tabela ficou bloqueada por mais de 5 segundos.")),
    (Spanish, (Assistant, "El deadlock venía de sync_inventory, que bloquea las filas del inventario en el orden inverso al de reserve_items.")),
    (French, (Person, "Les montants doivent toujours être stockés en centimes entiers, plus jamais en flottants : l'an dernier la clôture a eu un écart de 0,03 € à cause de ça.")),
    (German, (Assistant, "Der Preis-Cache bekommt eine Lebensdauer von 900 Sekunden; länger wäre zu träge für den Vertrieb, der Preise tagsüber ändert.")),
    (Italian, (Person, "Se qualcosa va storto in produzione, torniamo al tag v3.14.2: la v3.15.0 ha ancora il bug nello script di migrazione.")),
    (Portuguese, (Assistant, "Próximo passo: colocar retry no import_orders, no máximo 5 tentativas com espera dobrando até 32 segundos, e depois mandar a mensagem para a fila de mensagens mortas.")),
    (Spanish, (Person, "La flag FAST_CHECKOUT se queda apagada en producción hasta que pasemos una semana entera en staging sin errores.")),
    (French, (Assistant, "Les logs de production restent au niveau INFO : en DEBUG, la facture de stockage des logs a doublé le mois dernier.")),
];

fn phrases(language: Language) -> &'static Phrases {
    match language {
        Spanish => &Phrases {
            explain: [
                "Lee {path} y dime qué hace {name}.",
                "¿Qué hace {name} cuando el {noun} está vacío?",
            ],
            explained: "`{name}` valida la entrada y luego procesa cada {noun} por id; si algo falla devuelve Error, nunca hace panic.",
            callers: "¿Quién llama a {name}?",
            called: "Además de la definición en {path} hay {n} llamadas; ninguna pasa un {noun} vacío.",
            run_tests: "Pasa los tests de {m}, por favor.",
            passed: "Los {n} tests de {m} pasan.",
            failing: "{test} está fallando, ¿lo miras?",
            fixed: "El test esperaba que se saltaran los {noun} archivados, pero se mapeaban antes de mirar el estado. Con el filtro por estado, {test} ya pasa.",
            add_log: "Añade una línea de log cuando {name} falle.",
            logged: "Añadí un `tracing::debug!` en {name}; solo sale con RUST_LOG=debug.",
            lint: "¿Clippy sigue limpio?",
            lint_clean: "Clippy no da ningún aviso.",
            lint_warnings: "Hay {n} avisos `if_same_then_else`, todos en código que hoy no tocamos; los dejo.",
            commits: "¿Qué hemos commiteado hasta ahora?",
            committed: "Sobre todo arreglos pequeños y tests; nada toca el esquema.",
            threads: "¿Se puede llamar a {name} desde dos hilos?",
            threads_answer: "`{name}` no guarda estado propio, así que todo depende de lo que pase quien lo llama; yo dejaría la firma como está.",
            remarks: [
                "Los tests pasan.",
                "Decisión: mantener el enfoque actual por ahora.",
                "Nada más cambió.",
                "La build está en verde.",
                "Bien, esta parte queda resuelta.",
                "Importante: pasa la suite completa antes de hacer push.",
            ],
        },
        French => &Phrases {
            explain: [
                "Lis {path} et dis-moi ce que fait {name}.",
                "Que fait {name} quand le {noun} est vide ?",
            ],
            explained: "`{name}` vérifie l'entrée puis traite chaque {noun} par id ; en cas d'échec il renvoie Error, jamais de panic.",
            callers: "Qui appelle {name} ?",
            called: "En dehors de la définition dans {path}, il y a {n} appels ; aucun ne passe un {noun} vide.",
            run_tests: "Lance les tests de {m}, s'il te plaît.",
            passed: "Les {n} tests de {m} passent.",
            failing: "{test} échoue, tu peux regarder ?",
            fixed: "Le test attendait que les {noun} archivés soient ignorés, mais la ligne était transformée avant de vérifier l'état. Avec le filtre sur l'état, {test} passe.",
            add_log: "Ajoute une ligne de log quand {name} échoue.",
            logged: "J'ai ajouté un `tracing::debug!` dans {name} ; il ne s'affiche qu'avec RUST_LOG=debug.",
            lint: "Clippy est toujours propre ?",
            lint_clean: "Clippy ne signale rien.",
            lint_warnings: "{n} avertissements `if_same_then_else`, tous dans du code qu'on n'a pas touché aujourd'hui ; je les laisse.",
            commits: "Qu'est-ce qu'on a commité jusqu'ici ?",
            committed: "Surtout de petites corrections et des tests ; rien ne touche au schéma.",
            threads: "Est-ce qu'on peut appeler {name} depuis deux threads ?",
            threads_answer: "`{name}` ne garde aucun état, donc tout dépend de ce que l'appelant lui passe ; je garderais la signature telle quelle.",
            remarks: [
                "Les tests passent.",
                "Décision : on garde l'approche actuelle pour l'instant.",
                "Rien d'autre n'a changé.",
                "Le build est vert.",
                "Bon, cette partie est réglée.",
                "Important : lance toute la suite avant de pousser.",
            ],
        },
        German => &Phrases {
            explain: [
                "Lies {path} und sag mir, was {name} macht.",
                "Was macht {name}, wenn der {noun} leer ist?",
            ],
            explained: "`{name}` prüft die Eingabe und verarbeitet dann jeden {noun} nach id; bei einem Fehler gibt es Error zurück, nie ein panic.",
            callers: "Wer ruft {name} auf?",
            called: "Neben der Definition in {path} gibt es {n} Aufrufe; keiner übergibt einen leeren {noun}.",
            run_tests: "Lass bitte die Tests von {m} laufen.",
            passed: "Alle {n} Tests von {m} sind grün.",
            failing: "{test} schlägt fehl, kannst du mal schauen?",
            fixed: "Der Test erwartete, dass archivierte {noun} übersprungen werden, aber die Zeile wurde umgewandelt, bevor der Status geprüft wurde. Mit dem Filter auf den Status läuft {test} jetzt durch.",
            add_log: "Füg eine Logzeile hinzu, wenn {name} fehlschlägt.",
            logged: "In {name} steht jetzt ein `tracing::debug!`; es erscheint nur mit RUST_LOG=debug.",
            lint: "Ist Clippy noch sauber?",
            lint_clean: "Clippy meldet nichts.",
            lint_warnings: "{n} Warnungen `if_same_then_else`, alle in Code, den wir heute nicht angefasst haben; ich lasse sie.",
            commits: "Was haben wir bisher committet?",
            committed: "Vor allem kleine Fixes und Tests; nichts davon berührt das Schema.",
            threads: "Darf man {name} aus zwei Threads aufrufen?",
            threads_answer: "`{name}` hat keinen eigenen Zustand, es kommt also nur darauf an, was der Aufrufer übergibt; ich würde die Signatur so lassen.",
            remarks: [
                "Die Tests laufen durch.",
                "Entscheidung: wir bleiben vorerst beim jetzigen Ansatz.",
                "Sonst hat sich nichts geändert.",
                "Der Build ist grün.",
                "Gut, dieser Teil ist erledigt.",
                "Wichtig: vor dem Push die ganze Suite laufen lassen.",
            ],
        },
        Italian => &Phrases {
            explain: [
                "Leggi {path} e dimmi cosa fa {name}.",
                "Cosa fa {name} quando il {noun} è vuoto?",
            ],
            explained: "`{name}` controlla l'input e poi elabora ogni {noun} per id; se qualcosa fallisce restituisce Error, mai un panic.",
            callers: "Chi chiama {name}?",
            called: "Oltre alla definizione in {path} ci sono {n} chiamate; nessuna passa un {noun} vuoto.",
            run_tests: "Lancia i test di {m}, per favore.",
            passed: "Tutti i {n} test di {m} passano.",
            failing: "{test} fallisce, puoi darci un'occhiata?",
            fixed: "Il test si aspettava che i {noun} archiviati venissero saltati, ma la riga veniva trasformata prima di controllare lo stato. Con il filtro sullo stato, {test} ora passa.",
            add_log: "Aggiungi una riga di log quando {name} fallisce.",
            logged: "Ho aggiunto un `tracing::debug!` in {name}; compare solo con RUST_LOG=debug.",
            lint: "Clippy è ancora pulito?",
            lint_clean: "Clippy non segnala niente.",
            lint_warnings: "{n} avvisi `if_same_then_else`, tutti in codice che oggi non abbiamo toccato; li lascio.",
            commits: "Cosa abbiamo committato finora?",
            committed: "Soprattutto piccole correzioni e test; niente tocca lo schema.",
            threads: "Si può chiamare {name} da due thread?",
            threads_answer: "`{name}` non ha uno stato suo, quindi conta solo cosa gli passa il chiamante; lascerei la firma com'è.",
            remarks: [
                "I test passano.",
                "Decisione: per ora teniamo l'approccio attuale.",
                "Nient'altro è cambiato.",
                "La build è verde.",
                "Bene, questa parte è sistemata.",
                "Importante: lancia tutta la suite prima del push.",
            ],
        },
        Portuguese => &Phrases {
            explain: [
                "Lê {path} e me diz o que {name} faz.",
                "O que {name} faz quando o {noun} está vazio?",
            ],
            explained: "`{name}` valida a entrada e depois processa cada {noun} por id; se algo falha devolve Error, nunca dá panic.",
            callers: "Quem chama {name}?",
            called: "Além da definição em {path} há {n} chamadas; nenhuma passa um {noun} vazio.",
            run_tests: "Roda os testes de {m}, por favor.",
            passed: "Os {n} testes de {m} passam.",
            failing: "{test} está falhando, pode dar uma olhada?",
            fixed: "O teste esperava que os {noun} arquivados fossem pulados, mas a linha era convertida antes de olhar o estado. Com o filtro pelo estado, {test} passa agora.",
            add_log: "Coloca uma linha de log quando {name} falhar.",
            logged: "Coloquei um `tracing::debug!` em {name}; só aparece com RUST_LOG=debug.",
            lint: "O clippy continua limpo?",
            lint_clean: "O clippy não mostra nenhum aviso.",
            lint_warnings: "{n} avisos `if_same_then_else`, todos em código que não mexemos hoje; vou deixar.",
            commits: "O que a gente já commitou até agora?",
            committed: "Principalmente pequenas correções e testes; nada mexe no esquema.",
            threads: "Dá para chamar {name} de duas threads?",
            threads_answer: "`{name}` não guarda estado próprio, então tudo depende do que quem chama passa; eu deixaria a assinatura como está.",
            remarks: [
                "Os testes passam.",
                "Decisão: manter a abordagem atual por enquanto.",
                "Nada mais mudou.",
                "O build está verde.",
                "Certo, essa parte está resolvida.",
                "Importante: roda a suíte inteira antes do push.",
            ],
        },
    }
}

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let code = Codebase::new(rng, &PROJECT);
    let slots = fact_turns(n, &mut Vec::new());
    let said: Vec<Said> = FACTS.iter().map(|&(_, said)| said).collect();
    let facts = plant(&slots, &said);
    let mut language = Spanish;
    let mut left_in_run = 0;
    let turns = (0..n)
        .map(|i| {
            if left_in_run == 0 {
                language = *pick(rng, &LANGUAGES);
                left_in_run = rng.usize(3..9);
            }
            left_in_run -= 1;
            // A fact is said in its own language, whatever the turns around it use.
            let spoken = match slots.iter().position(|&slot| slot == i) {
                Some(k) => FACTS[k].0,
                None => language,
            };
            phrased_turn(rng, &code, phrases(spoken))
        })
        .collect();
    Session::new(&code.root, turns, facts, Vec::new(), rng)
}
