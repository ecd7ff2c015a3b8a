# Japanese for the rollout browser (RolloutBrowser, RolloutDetailView, RolloutCondition)
# and the reward HTML shared with the Reward Designer (RewardHtml). Read by ja.py.
B = "rwb::widgets::RolloutBrowser"
D = "rwb::widgets::RolloutDetailView"
C = "RolloutCondition"
H = "RewardHtml"

JA = {
    # RolloutBrowser
    (B, "Steps"): "ステップ",
    (B, "any"): "すべて",
    (B, "First step shown (any: from the start)"): "表示する最初のステップ（すべて: 最初から）",
    (B, "Last step shown (any: to the end)"): "表示する最後のステップ（すべて: 最後まで）",
    (B, "Reward"): "報酬",
    (B, "min"): "最小",
    (B, "max"): "最大",
    (B, "Truncated"): "打ち切り",
    (B, "yes"): "はい",
    (B, "no"): "いいえ",
    (B, "Components"): "コンポーネント",
    (B, "e.g. marker < 0.5 and partial >= 0.8"): "例: marker < 0.5 and partial >= 0.8",
    (B, "Conditions on reward components, joined by \"and\": name, one of < <= > >= == !=, a number."):
        "報酬コンポーネントの条件（\"and\" でつなぐ）: 名前、< <= > >= == != のいずれか、数値。",
    (B, "Conditions on reward components, joined by \"and\": name, one of < <= > >= == !=, a number. "
        "Components of this run: %1"):
        "報酬コンポーネントの条件（\"and\" でつなぐ）: 名前、< <= > >= == != のいずれか、数値。"
        "この実行のコンポーネント: %1",
    (B, "Search"): "検索",
    (B, "full-text search (SQLite FTS5, 3+ characters)"): "全文検索（SQLite FTS5、3 文字以上）",
    (B, "in completions"): "出力を検索",
    (B, "in prompts"): "プロンプトを検索",
    (B, "← Previous"): "← 前へ",
    (B, "Next →"): "次へ →",
    (B, "Previous rollout of the filtered table (←)"): "絞り込んだ表の前のロールアウト（←）",
    (B, "Next rollout of the filtered table (→)"): "絞り込んだ表の次のロールアウト（→）",
    (B, "Cannot show the rollouts of run %1 in %2: %3"): "%2 の実行 %1 のロールアウトを表示できません: %3",
    (B, "The %1 \"%2\" is not a number."): "%1「%2」は数値ではありません。",
    (B, "minimum reward"): "最小報酬",
    (B, "maximum reward"): "最大報酬",
    (B, "Components: %1"): "コンポーネント: %1",
    (B, "Search: %1"): "検索: %1",
    (B, "1 rollout shown"): "1 件のロールアウトを表示",
    (B, "%1 rollouts shown"): "%1 件のロールアウトを表示",
    (B, "more…"): "さらに読み込む…",
    (B, "Rollout %1: %2"): "ロールアウト %1: %2",
    # RolloutDetailView
    (D, "The run recorded no reward config at or before step %1."):
        "この実行にはステップ %1 以前の報酬設定が記録されていません。",
    (D, "The prompt has no recorded e-mail, so rewards that look at it are explained without it."):
        "プロンプトにメールが記録されていないため、メールを参照する報酬はメールなしで説明しています。",
    (D, "The reward config could not be rebuilt to explain the values: %1"):
        "値を説明するための報酬設定を再構築できませんでした: %1",
    (D, "Select a rollout to see its answer against the gold and why each reward component gave what it gave."):
        "ロールアウトを選ぶと、回答と正解の比較と、各報酬コンポーネントがその値を与えた理由が表示されます。",
    (D, "Run %1 (#%2) · step %3 · group %4 · sample %5"): "実行 %1 (#%2) · ステップ %3 · グループ %4 · サンプル %5",
    (D, "Reward (weighted total)"): "報酬（重み付き合計）",
    (D, "Advantage"): "アドバンテージ",
    (D, "Tokens"): "トークン数",
    (D, "Mean log-prob per token:"): "トークンあたりの平均対数確率:",
    (D, "sampling %1 · updated %2 · reference %3 (%4 token ids)"): "サンプリング時 %1 · 更新後 %2 · 参照 %3（トークン ID %4 個）",
    (D, "Truncated"): "打ち切り",
    (D, "yes"): "はい",
    (D, "no"): "いいえ",
    (D, "Answer against gold"): "回答と正解",
    (D, "in both"): "両方にある",
    (D, "only in the answer"): "回答にだけある",
    (D, "missing from the answer"): "回答に欠けている",
    (D, "Answer"): "回答",
    (D, "Gold"): "正解",
    (D, "Normalized answer"): "正規化した回答",
    (D, "Normalized gold"): "正規化した正解",
    (D, "Answer without markers"): "法人格を除いた回答",
    (D, "Gold without markers"): "法人格を除いた正解",
    (D, "Markers removed (answer / gold)"): "除いた法人格（回答 / 正解）",
    (D, "Reward components (config from step %1)"): "報酬コンポーネント（ステップ %1 からの設定）",
    (D, "Reward components"): "報酬コンポーネント",
    (D, "(explained now as %1; the run stored %2)"): "（いま計算し直すと %1、実行時の記録は %2）",
    (D, "Completion"): "モデルの出力",
    (D, "Extracted answer:"): "抽出した回答:",
    (D, "Prompt"): "プロンプト",
    (D, "Show less"): "折りたたむ",
    (D, "Show all %1 characters"): "全 %1 文字を表示",
    # RolloutCondition
    (C, "an empty condition in \"%1\""): "「%1」に空の条件があります",
    (C, "\"%1\" is not a comparison like \"marker < 0.5\""): "「%1」は「marker < 0.5」のような比較ではありません",
    (C, "unknown operator \"%1\" in \"%2\" (use <, <=, >, >=, == or !=)"):
        "「%2」の演算子「%1」は使えません（<、<=、>、>=、==、!= のいずれか）",
    (C, "a number is missing after \"%1\""): "「%1」の後に数値がありません",
    (C, "\"%1\" is not a number (in \"%2\")"): "「%1」は数値ではありません（「%2」の中）",
    (C, "unknown component '%1' (known: %2)"): "不明なコンポーネント「%1」（この実行のもの: %2）",
    # RewardHtml (the component table, shared with the Reward Designer)
    (H, "Reward"): "報酬",
    (H, "Value"): "値",
    (H, "Weight"): "重み",
    (H, "Contribution"): "寄与",
    (H, "Why"): "理由",
    (H, "Total"): "合計",
    (H, "Σ weight·value / Σ weight"): "Σ 重み·値 / Σ 重み",
}
