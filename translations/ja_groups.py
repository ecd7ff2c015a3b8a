"""Japanese for the group-advantage view and the token view (issue 5, helper "groups")."""

G = "rwb::widgets::GroupAdvantageView"
T = "rwb::widgets::TokenView"

JA = {
    # GroupAdvantageView
    (G, "Follow latest"): "最新を追う",
    (G, "Step"): "ステップ",
    (G, "The GRPO step whose groups are shown"): "グループを表示する GRPO のステップ",
    (G, "Show each new step as training writes it"): "学習が書き込んだ新しいステップを順に表示します",
    (G, "Cannot open run %1 of %2: %3"): "%2 のラン %1 を開けません: %3",
    (G, "Cannot read step %1: %2"): "ステップ %1 を読み込めません: %2",
    (G, "No run open."): "ランが開かれていません。",
    (G, "No step written yet."): "まだステップが書き込まれていません。",
    (G, "Step %1 has no rollouts (an evaluation step or not written)."):
        "ステップ %1 にはロールアウトがありません（評価ステップか、未書き込みです）。",
    (G, "Step %1: G = %2, %n group(s), mean reward %3."): ["ステップ %1: G = %2、%n グループ、平均報酬 %3。"],
    (G, "%1 of %2 groups all equal — they teach nothing."):
        "%2 グループ中 %1 グループは報酬がすべて同じです — 学習には寄与しません。",
    (G, "No group is all equal."): "報酬がすべて同じグループはありません。",
    # TokenView
    (T, "Advantage"): "アドバンテージ",
    (T, "Ratio to the old policy"): "旧方策との比",
    (T, "Entropy"): "エントロピー",
    (T, "What the token colours show"): "トークンの色が表す量",
    (T, "Colour by"): "色分け",
    (T, "Cannot read rollout %1: %2"): "ロールアウト %1 を読み込めません: %2",
    (T, "Run %1 of %2: its config names no \"model\" folder, so its tokens cannot be decoded."):
        "%2 のラン %1: 設定に \"model\" フォルダーがないため、トークンをデコードできません。",
    (T, "The model folder %1 of run %2 does not exist, so its tokens cannot be decoded."):
        "ラン %2 のモデルフォルダー %1 が存在しないため、トークンをデコードできません。",
    (T, "Cannot read the tokenizer of model folder %1: %2"): "モデルフォルダー %1 のトークナイザーを読み込めません: %2",
    (T, "Rollout %1 · run %2, step %3, group %4, sample %5 · reward %6, advantage %7 · %n token(s)"):
        ["ロールアウト %1 · ラン %2、ステップ %3、グループ %4、サンプル %5 · 報酬 %6、アドバンテージ %7 · %n トークン"],
    (T, "No rollout shown. Click a sample to see its tokens."):
        "ロールアウトが表示されていません。サンプルをクリックするとトークンを表示します。",
    (T, "Token %1 of %2: “%3” (id %4)"): "トークン %1 / %2: 「%3」（ID %4）",
    (T, "A special token: not part of the completion's text."): "特殊トークン: 生成文のテキストには含まれません。",
    (T, "Bytes %1: the start of a character that a later token finishes."):
        "バイト %1: 後続のトークンで完成する文字の先頭部分です。",
    (T, "Bytes %1 (with the bytes of earlier tokens they make “%2”)."):
        "バイト %1（前のトークンのバイトと合わせて「%2」になります）。",
    (T, "log-prob old %1, new %2"): "対数確率 旧 %1、新 %2",
    (T, "ratio %1 (log ratio %2)"): "比 %1（対数比 %2）",
    (T, "ratio: not stored (no log-probs of the update)"): "比: 保存されていません（更新時の対数確率がありません）",
    (T, "advantage %1 (the sequence's advantage: the same for every token)"):
        "アドバンテージ %1（系列のアドバンテージ: すべてのトークンで同じ）",
    (T, "advantage %1"): "アドバンテージ %1",
    (T, "entropy %1 nats"): "エントロピー %1 nats",
    (T, "entropy: not stored (written before entropies were kept, or not trained on)"):
        "エントロピー: 保存されていません（エントロピーを保存する前に書き込まれたか、学習に使われていません）",
    (T, "Advantage: GRPO's advantage is the sequence's, the same for every token."):
        "アドバンテージ: GRPO のアドバンテージは系列単位で、すべてのトークンで同じです。",
    (T, "Advantage of each token, as the loss used it."): "損失で使われた各トークンのアドバンテージ。",
    (T, "Ratio π_new / π_old = exp(log-prob new − log-prob old), coloured on a log scale; outside [0.8, 1.2] PPO's clip usually acts."):
        "比 π_new / π_old = exp(新しい対数確率 − 古い対数確率)。対数スケールで色分けしています。[0.8, 1.2] の外では通常 PPO のクリップが働きます。",
    (T, "Ratio: not stored for this rollout (its group was not trained on)."):
        "比: このロールアウトには保存されていません（そのグループは学習に使われていません）。",
    (T, "%1 nats"): "%1 nats",
    (T, "Entropy of the policy at each token, in nats, from the update's forward pass."):
        "各トークンでの方策のエントロピー（nats）。更新時の順伝播から求めたものです。",
    (T, "Entropies not stored for this rollout (written before they were kept, or not trained on)."):
        "このロールアウトにはエントロピーが保存されていません（保存する前に書き込まれたか、学習に使われていません）。",
}
JA[(G, "Each sample: its reward and advantage; the bar is the reward on the step's reward axis, blue for a positive advantage, red for a negative one; the black tick is the group's mean, the grey band its ±std. Click a sample to open it.")] = (
    "各サンプル: 報酬とアドバンテージ。バーはステップの報酬軸上の報酬で、アドバンテージが正なら青、負なら赤です。"
    "黒い目盛りはグループの平均、灰色の帯は ±標準偏差です。サンプルをクリックすると開きます。")
