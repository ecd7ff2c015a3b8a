"""Japanese for the failure explorer (widgets/failure*.cpp); merged by translations/ja.py."""

C = "rwb::widgets::FailureCategoryModel"
E = "rwb::widgets::FailureExampleModel"
T = "rwb::widgets::FailureTransitionModel"
X = "rwb::widgets::FailureExplorer"

JA = {
    (C, "Exact"): "完全一致",
    (C, "No answer"): "回答なし",
    (C, "Missed (said 不明)"): "見逃し（不明と回答）",
    (C, "Legal-entity marker only"): "法人格の違いのみ",
    (C, "Named a company where the answer is 不明"): "正解が不明なのに会社名を回答",
    (C, "Recipient's company"): "宛先の会社",
    (C, "Third party's company"): "第三者の会社",
    (C, "Invented (not in the input)"): "捏造（入力にない）",
    (C, "Other wrong span"): "その他の誤った範囲",
    (C, "The prediction equals the gold after normalization (NFKC, white space removed). 不明 for 不明 counts here."):
        "正規化（NFKC、空白除去）後に予測が正解と一致します。正解が不明で不明と回答した場合もここに入ります。",
    (C, "The prediction is empty: the model wrote nothing, or in thinking mode no <answer> block."):
        "予測が空です。モデルが何も出力しなかったか、思考モードで <answer> ブロックがありません。",
    (C, "The model answered 不明 although the e-mail states the sender's company."):
        "メールに送信者の会社が書かれているのに、モデルは不明と回答しました。",
    (C, "Right company, but the legal-entity markers differ (株式会社, (株), … added, dropped or changed)."):
        "会社は正しいものの、法人格（株式会社、(株) など）の追加・欠落・違いがあります。",
    (C, "The e-mail does not state the sender's company (gold 不明), but the model named one."):
        "メールに送信者の会社が書かれていない（正解は不明）のに、モデルは会社名を回答しました。",
    (C, "The model picked the company the e-mail is addressed to, not the sender's."):
        "モデルは送信者ではなく、メールの宛先の会社を選びました。",
    (C, "The model picked another company the e-mail mentions (neither sender nor recipient)."):
        "モデルはメールに出てくる別の会社（送信者でも宛先でもない）を選びました。",
    (C, "Neither the prediction nor its name without markers occurs in the e-mail or its sender line."):
        "予測も、法人格を除いた名前も、メール本文と送信者欄のどこにもありません。",
    (C, "The prediction is in the e-mail but is none of the above: a partial or overlapping span, a department, a person."):
        "予測はメール内にありますが、上記のどれでもありません（部分的・重なった範囲、部署名、人名など）。",
    (C, "no company"): "会社名なし",
    (C, "overlaps the gold"): "正解と重なる",
    (C, "the recipient's company"): "宛先の会社",
    (C, "a third party's company"): "第三者の会社",
    (C, "elsewhere in the e-mail"): "メール内の別の箇所",
    (C, "not in the e-mail"): "メール内にない",
    (C, "Fixed (wrong at A, right at B)"): "改善（A で誤り、B で正解）",
    (C, "Broke (right at A, wrong at B)"): "悪化（A で正解、B で誤り）",
    (C, "%1 of %2 e-mails evaluated at both checkpoints"): "両方のチェックポイントで評価した %2 通中 %1 通",
    (C, "Category"): "分類",
    (C, "A"): "A",
    (C, "Count"): "件数",
    (C, "B"): "B",
    (C, "Share"): "割合",
    (C, "B − A"): "B − A",
    (E, "(empty)"): "（空）",
    (E, "%1 → %2"): "%1 → %2",
    (E, "ID"): "ID",
    (E, "Prediction A"): "予測 A",
    (E, "Prediction"): "予測",
    (E, "Prediction B"): "予測 B",
    (E, "Gold"): "正解",
    (E, "Category A → B"): "分類 A → B",
    (E, "Category"): "分類",
    (X, "Category at A (rows) → at B (columns); click a cell for its e-mails"):
        "A での分類（行）→ B での分類（列）。セルをクリックするとそのメールを表示します",
    (X, "The checkpoint whose predictions are grouped (A)"): "予測を分類するチェックポイント（A）",
    (X, "A second checkpoint to compare with (B)"): "比較する 2 つ目のチェックポイント（B）",
    (X, "Checkpoint A:"): "チェックポイント A:",
    (X, "compare with B:"): "比較対象 B:",
    (X, "Highlights:"): "強調表示:",
    (X, "gold"): "正解",
    (X, "recipient"): "宛先",
    (X, "third party"): "第三者",
    (X, "prediction (A)"): "予測（A）",
    (X, "prediction B"): "予測 B",
    (X, "%1: run %2 has no stored evaluations"): "%1: 実行 %2 には保存された評価がありません",
    (X, "step %1"): "ステップ %1",
    (X, "run %1 of %2"): "%2 の実行 %1",
    (X, "recipients and third parties from the data"): "宛先と第三者はデータから",
    (X, "recipients and third parties guessed from the addressee block and legal-entity markers"):
        "宛先と第三者は宛名部分と法人格から推定",
    (X, "recipients and third parties from the data for %1 of %2 e-mails, guessed for the rest"):
        "宛先と第三者は %2 通中 %1 通はデータから、残りは推定",
    (X, "%1 — %n e-mail(s); %2"): ["%1 — メール %n 通。%2"],
    (X, "; %n prediction(s) left out: their id is not in %1"): ["。%n 件の予測は ID が %1 にないため除外"],
    (X, "No evaluation open."): "評価が開かれていません。",
    (X, "(none)"): "（なし）",
    (X, "<b>%1</b> → <b>%2</b>: <span style=\"color:#1e8449\">fixed %3</span> (wrong at A, right at B), "
        "<span style=\"color:#c0392b\">broke %4</span> (right at A, wrong at B), of %5 e-mails in both."):
        "<b>%1</b> → <b>%2</b>: <span style=\"color:#1e8449\">改善 %3</span>（A で誤り、B で正解）、"
        "<span style=\"color:#c0392b\">悪化 %4</span>（A で正解、B で誤り）。両方にあるメール %5 通中。",
    (X, "Only at A: %1, only at B: %2."): "A のみ: %1、B のみ: %2。",
    (X, "Fixed (wrong at A, right at B)"): "改善（A で誤り、B で正解）",
    (X, "Broke (right at A, wrong at B)"): "悪化（A で正解、B で誤り）",
    (X, "%1 at A → %2 at B"): "A で %1 → B で %2",
    (X, "%1: %n e-mail(s)"): ["%1: メール %n 通"],
    (X, "From: "): "差出人: ",
    (X, "<b>Gold:</b> %1"): "<b>正解:</b> %1",
    (X, "<b>%1:</b> %2 — <i>%3</i>"): "<b>%1:</b> %2 — <i>%3</i>",
    (X, "(empty)"): "（空）",
    (X, " (%1)"): "（%1）",
    (X, "Completion: %1"): "出力: %1",
    (X, "Prediction A"): "予測 A",
    (X, "Prediction"): "予測",
    (X, "Prediction B"): "予測 B",
    (X, "Recipient and third parties: from the data."): "宛先と第三者: データから。",
    (X, "Recipient and third parties: guessed (addressee block, legal-entity markers)."):
        "宛先と第三者: 推定（宛名部分、法人格）。",
    (T, "exact"): "一致",
    (T, "empty"): "空",
    (T, "missed"): "見逃し",
    (T, "marker"): "法人格",
    (T, "not 不明"): "不明でない",
    (T, "recipient"): "宛先",
    (T, "third"): "第三者",
    (T, "invented"): "捏造",
    (T, "other"): "その他",
    (T, "%n e-mail(s): %1 at A, %2 at B"): ["メール %n 通: A で %1、B で %2"],
}
