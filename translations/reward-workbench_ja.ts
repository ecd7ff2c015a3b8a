<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
    <context>
        <name>ComponentWeightsEditor</name>
        <message>
            <source>Weight of each reward component; the share is its part of the total.</source>
            <translation>各報酬コンポーネントの重み。割合は合計に占める比率です。</translation>
        </message>
        <message>
            <source>All weights are 0: give at least one component a weight.</source>
            <translation>すべての重みが 0 です。少なくとも 1 つのコンポーネントに重みを付けてください。</translation>
        </message>
        <message>
            <source>Weight of %1</source>
            <translation>%1 の重み</translation>
        </message>
        <message>
            <source>Share of %1 in the total</source>
            <translation>合計に占める %1 の割合</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>Reward config: %1</source>
            <translation>報酬設定: %1</translation>
        </message>
        <message>
            <source>Reward Workbench</source>
            <translation>Reward Workbench</translation>
        </message>
        <message>
            <source>Reward components</source>
            <translation>報酬コンポーネント</translation>
        </message>
        <message>
            <source>Sample details</source>
            <translation>サンプルの詳細</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>ファイル(&amp;F)</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>表示(&amp;V)</translation>
        </message>
        <message>
            <source>&amp;Settings</source>
            <translation>設定(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;Language</source>
            <translation>言語(&amp;L)</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>ヘルプ(&amp;H)</translation>
        </message>
        <message>
            <source>&amp;Open samples…</source>
            <translation>サンプルを開く(&amp;O)…</translation>
        </message>
        <message>
            <source>Open the &amp;bundled samples</source>
            <translation>同梱サンプルを開く(&amp;B)</translation>
        </message>
        <message>
            <source>&amp;Load reward config…</source>
            <translation>報酬設定を読み込む(&amp;L)…</translation>
        </message>
        <message>
            <source>&amp;Save reward config as…</source>
            <translation>報酬設定に名前を付けて保存(&amp;S)…</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>終了(&amp;Q)</translation>
        </message>
        <message>
            <source>&amp;Reset layout</source>
            <translation>レイアウトをリセット(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;About Reward Workbench</source>
            <translation>Reward Workbench について(&amp;A)</translation>
        </message>
        <message>
            <source>System language</source>
            <translation>システムの言語</translation>
        </message>
        <message>
            <source>bundled samples</source>
            <translation>同梱サンプル</translation>
        </message>
        <message numerus="yes">
            <source>%1 · %n sample(s)</source>
            <translation>
                <numerusform>%1 · %n 件のサンプル</numerusform>
            </translation>
        </message>
        <message>
            <source>Open samples</source>
            <translation>サンプルを開く</translation>
        </message>
        <message>
            <source>The bundled samples are shown instead.</source>
            <translation>代わりに同梱サンプルを表示します。</translation>
        </message>
        <message numerus="yes">
            <source>%n malformed line(s) skipped: %1</source>
            <translation>
                <numerusform>不正な行を %n 行スキップしました: %1</numerusform>
            </translation>
        </message>
        <message>
            <source>Load reward config</source>
            <translation>報酬設定の読み込み</translation>
        </message>
        <message>
            <source>The paper's best preset is used instead.</source>
            <translation>代わりに論文の最良プリセットを使います。</translation>
        </message>
        <message>
            <source>About Reward Workbench</source>
            <translation>Reward Workbench について</translation>
        </message>
        <message>
            <source>&lt;h3&gt;Reward Workbench %1&lt;/h3&gt;&lt;p&gt;Design rewards for GRPO fine-tuning, see what each component gives on real samples, and debug failed extractions.&lt;/p&gt;</source>
            <translation>&lt;h3&gt;Reward Workbench %1&lt;/h3&gt;&lt;p&gt;GRPO ファインチューニング用の報酬を設計し、各コンポーネントが実際のサンプルに与える値を確かめ、抽出の失敗をデバッグします。&lt;/p&gt;</translation>
        </message>
    </context>
    <context>
        <name>RewardDesigner</name>
        <message>
            <source>%1: cannot open: %2</source>
            <translation>%1: 開けません: %2</translation>
        </message>
        <message numerus="yes">
            <source>%1: no valid sample line (%n malformed line(s))</source>
            <translation>
                <numerusform>%1: 有効なサンプル行がありません（不正な行 %n 行）</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: cannot write: %2</source>
            <translation>%1: 書き込めません: %2</translation>
        </message>
        <message>
            <source>Open samples</source>
            <translation>サンプルを開く</translation>
        </message>
        <message>
            <source>Extraction samples (*.jsonl);;All files (*)</source>
            <translation>抽出サンプル (*.jsonl);;すべてのファイル (*)</translation>
        </message>
        <message numerus="yes">
            <source>%n malformed line(s) were skipped; the other lines are loaded. The file was not changed.</source>
            <translation>
                <numerusform>不正な行を %n 行スキップし、残りの行を読み込みました。ファイルは変更していません。</numerusform>
            </translation>
        </message>
        <message>
            <source>Load reward config</source>
            <translation>報酬設定の読み込み</translation>
        </message>
        <message>
            <source>Reward configs (*.json);;All files (*)</source>
            <translation>報酬設定 (*.json);;すべてのファイル (*)</translation>
        </message>
        <message>
            <source>Save reward config</source>
            <translation>報酬設定の保存</translation>
        </message>
        <message>
            <source>Reward configs (*.json)</source>
            <translation>報酬設定 (*.json)</translation>
        </message>
        <message>
            <source>Saved %1</source>
            <translation>%1 を保存しました</translation>
        </message>
        <message>
            <source>%1 of %2 samples</source>
            <translation>%2 件中 %1 件のサンプル</translation>
        </message>
        <message>
            <source>&amp;Preset (the paper's configurations):</source>
            <translation>プリセット（論文の構成）(&amp;P):</translation>
        </message>
        <message>
            <source>Load…</source>
            <translation>読み込み…</translation>
        </message>
        <message>
            <source>Load a reward config (JSON)</source>
            <translation>報酬設定 (JSON) を読み込みます</translation>
        </message>
        <message>
            <source>Save as…</source>
            <translation>名前を付けて保存…</translation>
        </message>
        <message>
            <source>Save the weights and the mode as a reward config (JSON)</source>
            <translation>重みとモードを報酬設定 (JSON) として保存します</translation>
        </message>
        <message>
            <source>Config: (unsaved)</source>
            <translation>設定: （未保存）</translation>
        </message>
        <message>
            <source>Config: %1</source>
            <translation>設定: %1</translation>
        </message>
        <message>
            <source>Search id, kind, answer, gold…</source>
            <translation>ID・種類・回答・正解を検索…</translation>
        </message>
        <message>
            <source>No score filter</source>
            <translation>スコアで絞り込まない</translation>
        </message>
        <message>
            <source>Total</source>
            <translation>合計</translation>
        </message>
        <message>
            <source>Show only samples whose score meets the condition</source>
            <translation>スコアが条件を満たすサンプルだけを表示します</translation>
        </message>
        <message>
            <source>Thinking mode</source>
            <translation>思考モード</translation>
        </message>
        <message>
            <source>The answer is the text inside the first &lt;answer&gt;…&lt;/answer&gt; of the completion.</source>
            <translation>回答は出力の最初の &lt;answer&gt;…&lt;/answer&gt; の中のテキストです。</translation>
        </message>
    </context>
    <context>
        <name>RewardText</name>
        <message>
            <source>Longest common substring of answer and gold: 2·LCS / (|answer| + |gold|).</source>
            <translation>回答と正解の最長共通部分文字列: 2·LCS / (|回答| + |正解|)。</translation>
        </message>
        <message>
            <source>Like partial, after removing legal-entity markers (株式会社, (株), …) from both.</source>
            <translation>両方から法人格（株式会社、(株) など）を除いたうえでの partial。</translation>
        </message>
        <message>
            <source>1 when the answer occurs in the sender header or the e-mail body (or both are 不明).</source>
            <translation>回答が送信者ヘッダかメール本文に含まれていれば 1（両方が「不明」の場合も 1）。</translation>
        </message>
        <message>
            <source>1 when the completion is &lt;thinking&gt;…&lt;/thinking&gt; followed by &lt;answer&gt;…&lt;/answer&gt;.</source>
            <translation>出力が &lt;thinking&gt;…&lt;/thinking&gt; の直後に &lt;answer&gt;…&lt;/answer&gt; が続く形式なら 1。</translation>
        </message>
        <message>
            <source>Best match between the romanized answer (or a synonym) and the sender's e-mail domain.</source>
            <translation>ローマ字化した回答（または同義語）と送信者メールアドレスのドメインとの最大一致率。</translation>
        </message>
        <message>
            <source>Common substring of %1 characters; answer %2, gold %3 characters: 2·%1 / (%2 + %3) = %4.</source>
            <translation>共通部分文字列 %1 文字、回答 %2 文字、正解 %3 文字: 2·%1 / (%2 + %3) = %4。</translation>
        </message>
        <message>
            <source>Answer and gold are both empty: 1.</source>
            <translation>回答と正解がどちらも空: 1。</translation>
        </message>
        <message>
            <source>The compared answer is empty: 0.</source>
            <translation>比較する回答が空: 0。</translation>
        </message>
        <message>
            <source>The compared gold is empty: 0.</source>
            <translation>比較する正解が空: 0。</translation>
        </message>
        <message>
            <source>Both are only legal-entity markers, so the unstripped strings are compared: %1.</source>
            <translation>両方とも法人格だけなので、除去前の文字列を比較: %1。</translation>
        </message>
        <message>
            <source>Gold and answer are both 不明: 1.</source>
            <translation>正解と回答がどちらも「不明」: 1。</translation>
        </message>
        <message>
            <source>The answer occurs in the sender header or the e-mail body: 1.</source>
            <translation>回答が送信者ヘッダかメール本文に含まれる: 1。</translation>
        </message>
        <message>
            <source>The answer occurs nowhere in the sender header or the e-mail body: 0.</source>
            <translation>回答が送信者ヘッダにもメール本文にも含まれない: 0。</translation>
        </message>
        <message>
            <source>The answer is empty: 0.</source>
            <translation>回答が空: 0。</translation>
        </message>
        <message>
            <source>The completion is &lt;thinking&gt;…&lt;/thinking&gt; followed by &lt;answer&gt;…&lt;/answer&gt;: 1.</source>
            <translation>出力が &lt;thinking&gt;…&lt;/thinking&gt; に続く &lt;answer&gt;…&lt;/answer&gt; の形式: 1。</translation>
        </message>
        <message>
            <source>The completion does not start with &lt;thinking&gt;: 0.</source>
            <translation>出力が &lt;thinking&gt; で始まらない: 0。</translation>
        </message>
        <message>
            <source>&lt;/thinking&gt; is missing: 0.</source>
            <translation>&lt;/thinking&gt; がない: 0。</translation>
        </message>
        <message>
            <source>&lt;/thinking&gt; is not followed by &lt;answer&gt;: 0.</source>
            <translation>&lt;/thinking&gt; の後に &lt;answer&gt; が続かない: 0。</translation>
        </message>
        <message>
            <source>&lt;/answer&gt; is missing: 0.</source>
            <translation>&lt;/answer&gt; がない: 0。</translation>
        </message>
        <message>
            <source>There is text after &lt;/answer&gt;: 0.</source>
            <translation>&lt;/answer&gt; の後にテキストがある: 0。</translation>
        </message>
        <message>
            <source>A block contains another opening tag: 0.</source>
            <translation>ブロックの中に別の開始タグがある: 0。</translation>
        </message>
        <message>
            <source>The format does not match: 0.</source>
            <translation>形式が一致しない: 0。</translation>
        </message>
        <message>
            <source>The answer is 不明, so there is nothing to compare with the domain: 0.</source>
            <translation>回答が「不明」なので、ドメインと比較するものがない: 0。</translation>
        </message>
        <message>
            <source>The sender header has no e-mail address: 0.</source>
            <translation>送信者ヘッダにメールアドレスがない: 0。</translation>
        </message>
        <message numerus="yes">
            <source>Best of %n romanized candidate(s) against the domain "%1": %2.</source>
            <translation>
                <numerusform>ローマ字化した候補 %n 件とドメイン「%1」との最大一致率: %2。</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SampleDetailView</name>
        <message>
            <source>Select a sample to see why each reward component gave what it gave.</source>
            <translation>サンプルを選ぶと、各報酬コンポーネントがその値を与えた理由を表示します。</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>値</translation>
        </message>
        <message>
            <source>Weight</source>
            <translation>重み</translation>
        </message>
        <message>
            <source>Contribution</source>
            <translation>寄与</translation>
        </message>
        <message>
            <source>Why</source>
            <translation>理由</translation>
        </message>
        <message>
            <source>Total</source>
            <translation>合計</translation>
        </message>
        <message>
            <source>Σ weight·value / Σ weight</source>
            <translation>Σ 重み·値 / Σ 重み</translation>
        </message>
        <message>
            <source>Normalized answer and gold</source>
            <translation>正規化した回答と正解</translation>
        </message>
        <message>
            <source>After removing legal-entity markers</source>
            <translation>法人格を除いた後</translation>
        </message>
        <message>
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>Gold</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>Removed from the answer</source>
            <translation>回答から除いた法人格</translation>
        </message>
        <message>
            <source>Removed from the gold</source>
            <translation>正解から除いた法人格</translation>
        </message>
        <message>
            <source>Romanized candidates against the domain "%1"</source>
            <translation>ローマ字化した候補とドメイン「%1」</translation>
        </message>
        <message>
            <source>Candidate</source>
            <translation>候補</translation>
        </message>
        <message>
            <source>Romaji</source>
            <translation>ローマ字</translation>
        </message>
        <message>
            <source>Match</source>
            <translation>一致率</translation>
        </message>
        <message>
            <source>Completion</source>
            <translation>モデルの出力</translation>
        </message>
        <message>
            <source>Extracted answer:</source>
            <translation>抽出した回答:</translation>
        </message>
        <message>
            <source>E-mail</source>
            <translation>メール</translation>
        </message>
        <message>
            <source>gold</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>From:</source>
            <translation>送信者:</translation>
        </message>
        <message>
            <source>Reward</source>
            <translation>報酬</translation>
        </message>
    </context>
    <context>
        <name>SampleScoreModel</name>
        <message>
            <source>ID</source>
            <translation>ID</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>種類</translation>
        </message>
        <message>
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>Gold</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>Total</source>
            <translation>合計</translation>
        </message>
        <message>
            <source>Σ weight·reward / Σ weight</source>
            <translation>Σ 重み·報酬 / Σ 重み</translation>
        </message>
        <message>
            <source>The label of the bundled samples: what kind of candidate this completion is.</source>
            <translation>同梱サンプルのラベル: この出力がどの種類の候補か。</translation>
        </message>
    </context>
    <context>
        <name>Workspace</name>
        <message>
            <source>%1: cannot create the folder</source>
            <translation>%1: フォルダーを作成できません</translation>
        </message>
        <message>
            <source>%1: not a run store (%2)</source>
            <translation>%1: 実行ストアではありません (%2)</translation>
        </message>
        <message>
            <source>%1: no such folder</source>
            <translation>%1: フォルダーがありません</translation>
        </message>
        <message>
            <source>%1: missing — not a workspace folder</source>
            <translation>%1: ありません — ワークスペースのフォルダーではありません</translation>
        </message>
        <message>
            <source>%1: not a JSON object (%2)</source>
            <translation>%1: JSON オブジェクトではありません (%2)</translation>
        </message>
        <message>
            <source>top level</source>
            <translation>最上位</translation>
        </message>
        <message>
            <source>%1: a file, not a folder</source>
            <translation>%1: フォルダーではなくファイルです</translation>
        </message>
        <message>
            <source>%1: the folder is not empty and is not a workspace (no %2)</source>
            <translation>%1: フォルダーが空ではなく、ワークスペースでもありません（%2 がありません）</translation>
        </message>
        <message>
            <source>%1: cannot write (%2)</source>
            <translation>%1: 書き込めません (%2)</translation>
        </message>
        <message>
            <source>%1: missing (a model folder needs its config.json)</source>
            <translation>%1: ありません（モデルフォルダーには config.json が必要です）</translation>
        </message>
        <message>
            <source>%1: no weights (model.safetensors or model.safetensors.index.json)</source>
            <translation>%1: 重みがありません（model.safetensors または model.safetensors.index.json）</translation>
        </message>
        <message>
            <source>%1: no tokenizer (tokenizer.json or tokenizer.model)</source>
            <translation>%1: トークナイザーがありません（tokenizer.json または tokenizer.model）</translation>
        </message>
        <message>
            <source>%1: no records</source>
            <translation>%1: レコードがありません</translation>
        </message>
        <message numerus="yes">
            <source>%n record(s)</source>
            <translation>
                <numerusform>%n 件のレコード</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>main</name>
        <message>
            <source>Reward Workbench: design and debug rewards for GRPO fine-tuning.</source>
            <translation>Reward Workbench: GRPO ファインチューニングの報酬を設計・デバッグします。</translation>
        </message>
        <message>
            <source>Extraction samples to open (JSONL).</source>
            <translation>開く抽出サンプル (JSONL)。</translation>
        </message>
        <message>
            <source>file</source>
            <translation>ファイル</translation>
        </message>
        <message>
            <source>Reward config to open (JSON).</source>
            <translation>開く報酬設定 (JSON)。</translation>
        </message>
        <message>
            <source>Language: system, en or ja (remembered).</source>
            <translation>言語: system、en または ja（次回も使われます）。</translation>
        </message>
        <message>
            <source>code</source>
            <translation>コード</translation>
        </message>
        <message>
            <source>Select this row of the sample table.</source>
            <translation>サンプル表のこの行を選択します。</translation>
        </message>
        <message>
            <source>row</source>
            <translation>行</translation>
        </message>
        <message>
            <source>Save a screenshot of the window to this PNG and quit.</source>
            <translation>ウィンドウのスクリーンショットをこの PNG に保存して終了します。</translation>
        </message>
        <message>
            <source>png</source>
            <translation>png</translation>
        </message>
        <message>
            <source>Benchmark: time a weight change on this many samples, print JSON and quit.</source>
            <translation>ベンチマーク: この件数のサンプルで重みの変更にかかる時間を測り、JSON を出力して終了します。</translation>
        </message>
        <message>
            <source>count</source>
            <translation>件数</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::CurvePanel</name>
        <message>
            <source>Smoothing</source>
            <translation>平滑化</translation>
        </message>
        <message>
            <source>Exponential moving average of each curve (0 = off); the raw points stay visible as dots.</source>
            <translation>各曲線の指数移動平均（0 でオフ）。元の値は点として表示されたままです。</translation>
        </message>
        <message>
            <source>Fit</source>
            <translation>全体表示</translation>
        </message>
        <message>
            <source>Show every point and follow new ones again (double-click a plot to fit that plot only).</source>
            <translation>すべての点を表示し、新しい点への追従を再開します（グラフをダブルクリックするとそのグラフだけ）。</translation>
        </message>
        <message>
            <source>Export PNG…</source>
            <translation>PNG に書き出す…</translation>
        </message>
        <message>
            <source>Export CSV…</source>
            <translation>CSV に書き出す…</translation>
        </message>
        <message>
            <source>Export curves as PNG</source>
            <translation>曲線を PNG に書き出す</translation>
        </message>
        <message>
            <source>PNG images (*.png)</source>
            <translation>PNG 画像 (*.png)</translation>
        </message>
        <message>
            <source>Export failed</source>
            <translation>書き出しに失敗しました</translation>
        </message>
        <message>
            <source>Export curves as CSV</source>
            <translation>曲線を CSV に書き出す</translation>
        </message>
        <message>
            <source>CSV files (*.csv)</source>
            <translation>CSV ファイル (*.csv)</translation>
        </message>
        <message>
            <source>Reward (mean ± std)</source>
            <translation>報酬（平均 ± 標準偏差）</translation>
        </message>
        <message>
            <source>Reward components</source>
            <translation>報酬コンポーネント</translation>
        </message>
        <message>
            <source>KL divergence</source>
            <translation>KL ダイバージェンス</translation>
        </message>
        <message>
            <source>Entropy</source>
            <translation>エントロピー</translation>
        </message>
        <message>
            <source>Clip ratios</source>
            <translation>クリップ率</translation>
        </message>
        <message>
            <source>Completion length</source>
            <translation>出力の長さ</translation>
        </message>
        <message>
            <source>Validation F1</source>
            <translation>検証 F1</translation>
        </message>
        <message>
            <source>Groups with equal rewards</source>
            <translation>報酬がすべて同じグループ</translation>
        </message>
        <message>
            <source>reward</source>
            <translation>報酬</translation>
        </message>
        <message>
            <source>mean reward</source>
            <translation>平均報酬</translation>
        </message>
        <message>
            <source>KL (k3)</source>
            <translation>KL (k3)</translation>
        </message>
        <message>
            <source>nats / token</source>
            <translation>nats / トークン</translation>
        </message>
        <message>
            <source>fraction of tokens</source>
            <translation>トークンの割合</translation>
        </message>
        <message>
            <source>tokens</source>
            <translation>トークン数</translation>
        </message>
        <message>
            <source>F1</source>
            <translation>F1</translation>
        </message>
        <message>
            <source>fraction of groups</source>
            <translation>グループの割合</translation>
        </message>
        <message>
            <source>step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>No data: KL is logged when β &gt; 0</source>
            <translation>データなし: KL は β &gt; 0 のときだけ記録されます</translation>
        </message>
        <message>
            <source>No data</source>
            <translation>データなし</translation>
        </message>
        <message>
            <source>Cannot show run %1: the run store %2 does not exist.</source>
            <translation>実行 %1 を表示できません: 実行ストア %2 がありません。</translation>
        </message>
        <message>
            <source>%1 #%2</source>
            <translation>%1 #%2</translation>
        </message>
        <message>
            <source>Cannot show run %1 of %2: %3</source>
            <translation>%2 の実行 %1 を表示できません: %3</translation>
        </message>
        <message>
            <source>run #%1</source>
            <translation>実行 #%1</translation>
        </message>
        <message>
            <source>%1 %2</source>
            <translation>%1 %2</translation>
        </message>
        <message>
            <source>%1 · %2</source>
            <translation>%1 · %2</translation>
        </message>
        <message>
            <source>Cannot write the image %1.</source>
            <translation>画像 %1 を書き込めません。</translation>
        </message>
        <message>
            <source>Cannot write %1: %2</source>
            <translation>%1 を書き込めません: %2</translation>
        </message>
        <message>
            <source>weights %1</source>
            <translation>重み %1</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::GroupAdvantageModel</name>
        <message>
            <source>all equal</source>
            <translation>すべて同じ</translation>
        </message>
        <message>
            <source>Every sample of this group got the same reward: its advantages are 0 and it teaches nothing.</source>
            <translation>このグループのサンプルはすべて同じ報酬でした。アドバンテージは 0 で、学習には寄与しません。</translation>
        </message>
        <message>
            <source>reward %1, advantage %2</source>
            <translation>報酬 %1、アドバンテージ %2</translation>
        </message>
        <message>
            <source>Group</source>
            <translation>グループ</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>プロンプト</translation>
        </message>
        <message>
            <source>Gold</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>Mean</source>
            <translation>平均</translation>
        </message>
        <message>
            <source>Std</source>
            <translation>標準偏差</translation>
        </message>
        <message>
            <source>Flat</source>
            <translation>差なし</translation>
        </message>
        <message>
            <source>Sample %1</source>
            <translation>サンプル %1</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JobRunner</name>
        <message>
            <source>cancelled</source>
            <translation>キャンセルしました</translation>
        </message>
        <message>
            <source>unknown error</source>
            <translation>不明なエラー</translation>
        </message>
        <message>
            <source>Synthesizing %1 e-mails</source>
            <translation>%1 通のメールを合成しています</translation>
        </message>
        <message>
            <source>%1 train, %2 validation and %3 test e-mails in %4</source>
            <translation>訓練 %1 通、検証 %2 通、テスト %3 通のメールを %4 に作成しました</translation>
        </message>
        <message>
            <source>Training a tokenizer of %1 tokens</source>
            <translation>%1 トークンのトークナイザーを学習しています</translation>
        </message>
        <message>
            <source>last pair seen %1 times</source>
            <translation>最後のペアの出現回数 %1</translation>
        </message>
        <message>
            <source>%1 tokens learned from %2 e-mails, written to %3</source>
            <translation>%2 通のメールから %1 トークンを学習し、%3 に書き込みました</translation>
        </message>
        <message>
            <source>Supervised fine-tuning</source>
            <translation>教師ありファインチューニング</translation>
        </message>
        <message>
            <source>loss %1, %2 tokens/s</source>
            <translation>損失 %1、%2 トークン/秒</translation>
        </message>
        <message>
            <source>%1 steps, final loss %2, written to %3</source>
            <translation>%1 ステップ、最終損失 %2、%3 に書き込みました</translation>
        </message>
        <message>
            <source>Evaluating %1</source>
            <translation>%1 を評価しています</translation>
        </message>
        <message>
            <source>Creating a %1 model</source>
            <translation>%1 モデルを作成しています</translation>
        </message>
        <message>
            <source>%1 parameters, written to %2</source>
            <translation>パラメーター数 %1、%2 に書き込みました</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RolloutTableModel</name>
        <message>
            <source>yes</source>
            <translation>はい</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>Group</source>
            <translation>グループ</translation>
        </message>
        <message>
            <source>Sample</source>
            <translation>サンプル</translation>
        </message>
        <message>
            <source>Reward</source>
            <translation>報酬</translation>
        </message>
        <message>
            <source>Advantage</source>
            <translation>アドバンテージ</translation>
        </message>
        <message>
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>Gold</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>Tokens</source>
            <translation>トークン数</translation>
        </message>
        <message>
            <source>Truncated</source>
            <translation>打ち切り</translation>
        </message>
        <message>
            <source>Completion</source>
            <translation>モデルの出力</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RunListModel</name>
        <message>
            <source>running</source>
            <translation>実行中</translation>
        </message>
        <message>
            <source>finished</source>
            <translation>完了</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失敗</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Id</source>
            <translation>ID</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名前</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>種類</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状態</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>ステップ数</translation>
        </message>
        <message>
            <source>Last step</source>
            <translation>最終ステップ</translation>
        </message>
        <message>
            <source>Created</source>
            <translation>作成日時</translation>
        </message>
        <message>
            <source>Finished</source>
            <translation>終了日時</translation>
        </message>
        <message>
            <source>Message</source>
            <translation>メッセージ</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RunSetupForm</name>
        <message>
            <source>Choose a folder</source>
            <translation>フォルダーを選択</translation>
        </message>
        <message>
            <source>Choose a file</source>
            <translation>ファイルを選択</translation>
        </message>
        <message>
            <source>Paper defaults</source>
            <translation>論文の既定値</translation>
        </message>
        <message>
            <source>The first paper's table 4 values for everything but the paths and the run name</source>
            <translation>パスと実行名以外のすべてを論文の表 4 の値にします</translation>
        </message>
        <message>
            <source>Demo (tiny model)</source>
            <translation>デモ（小型モデル）</translation>
        </message>
        <message>
            <source>The demo's GRPO values for the tiny model (scripts/demo.sh): G 8, 8 prompts, 24 tokens, LoRA r 16, learning rate 5e-4, 100 steps, evaluation every 20</source>
            <translation>小型モデル用のデモの GRPO 設定（scripts/demo.sh）: G 8、プロンプト 8、24 トークン、LoRA r 16、学習率 5e-4、100 ステップ、20 ステップごとに評価</translation>
        </message>
        <message>
            <source>Data &amp;&amp; model</source>
            <translation>データとモデル</translation>
        </message>
        <message>
            <source>Sampling</source>
            <translation>サンプリング</translation>
        </message>
        <message>
            <source>Optimization</source>
            <translation>最適化</translation>
        </message>
        <message>
            <source>Loss</source>
            <translation>損失</translation>
        </message>
        <message>
            <source>Evaluation &amp;&amp; checkpoints</source>
            <translation>評価とチェックポイント</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>モデル</translation>
        </message>
        <message>
            <source>The policy's starting point: a model folder (e.g. the SFT output)</source>
            <translation>方策の出発点となるモデルフォルダー（例: SFT の出力）</translation>
        </message>
        <message>
            <source>Initial adapter</source>
            <translation>初期アダプター</translation>
        </message>
        <message>
            <source>Optional: a LoRA adapter (e.g. SFT's) merged into the model first</source>
            <translation>任意: 最初にモデルへマージする LoRA アダプター（例: SFT のもの）</translation>
        </message>
        <message>
            <source>Training data</source>
            <translation>訓練データ</translation>
        </message>
        <message>
            <source>Extraction JSONL: the prompts</source>
            <translation>抽出タスクの JSONL: プロンプト</translation>
        </message>
        <message>
            <source>Validation data</source>
            <translation>検証データ</translation>
        </message>
        <message>
            <source>Optional: extraction JSONL scored with precision / recall / F1</source>
            <translation>任意: 適合率 / 再現率 / F1 で評価する抽出タスクの JSONL</translation>
        </message>
        <message>
            <source>Reward config</source>
            <translation>報酬設定</translation>
        </message>
        <message>
            <source>The reward config JSON (the Designer's)</source>
            <translation>報酬設定の JSON（デザイナーのもの）</translation>
        </message>
        <message>
            <source>Run store</source>
            <translation>実行ストア</translation>
        </message>
        <message>
            <source>The SQLite run store; the workspace's runs.sqlite</source>
            <translation>SQLite の実行ストア。ワークスペースの runs.sqlite</translation>
        </message>
        <message>
            <source>Output folder</source>
            <translation>出力フォルダー</translation>
        </message>
        <message>
            <source>Checkpoints and the final adapter</source>
            <translation>チェックポイントと最終アダプター</translation>
        </message>
        <message>
            <source>Run name</source>
            <translation>実行名</translation>
        </message>
        <message>
            <source>Empty: the output folder's name</source>
            <translation>空欄: 出力フォルダーの名前</translation>
        </message>
        <message>
            <source>Generations per prompt (G)</source>
            <translation>プロンプトあたりの生成数 (G)</translation>
        </message>
        <message>
            <source>Completions sampled for each prompt; one group</source>
            <translation>各プロンプトからサンプリングする出力の数（1 グループ）</translation>
        </message>
        <message>
            <source>Prompts per step (B)</source>
            <translation>ステップあたりのプロンプト数 (B)</translation>
        </message>
        <message>
            <source>8 × 8 = the paper's 64 completions per step</source>
            <translation>8 × 8 = 論文のステップあたり 64 出力</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <source>Sampling temperature</source>
            <translation>サンプリング温度</translation>
        </message>
        <message>
            <source>Top-p</source>
            <translation>Top-p</translation>
        </message>
        <message>
            <source>Nucleus sampling: the smallest set of tokens with this much probability</source>
            <translation>核サンプリング: 累積確率がこの値に達する最小のトークン集合</translation>
        </message>
        <message>
            <source>Top-k</source>
            <translation>Top-k</translation>
        </message>
        <message>
            <source>0: off</source>
            <translation>0: 無効</translation>
        </message>
        <message>
            <source>Max completion tokens</source>
            <translation>最大出力トークン数</translation>
        </message>
        <message>
            <source>A completion that reaches it is truncated</source>
            <translation>これに達した出力は打ち切られます</translation>
        </message>
        <message>
            <source>Dynamic sampling</source>
            <translation>動的サンプリング</translation>
        </message>
        <message>
            <source>DAPO: drop groups whose rewards are all equal and sample more</source>
            <translation>DAPO: 報酬がすべて等しいグループを除き、追加でサンプリングします</translation>
        </message>
        <message>
            <source>Max sampling rounds</source>
            <translation>最大サンプリング回数</translation>
        </message>
        <message>
            <source>Generation rounds per step at most (dynamic sampling)</source>
            <translation>ステップあたりの生成回数の上限（動的サンプリング）</translation>
        </message>
        <message>
            <source>LoRA</source>
            <translation>LoRA</translation>
        </message>
        <message>
            <source>Train LoRA adapters; off: the whole model</source>
            <translation>LoRA アダプターを学習します。オフ: モデル全体</translation>
        </message>
        <message>
            <source>LoRA rank r</source>
            <translation>LoRA ランク r</translation>
        </message>
        <message>
            <source>Rank of the adapters</source>
            <translation>アダプターのランク</translation>
        </message>
        <message>
            <source>LoRA α</source>
            <translation>LoRA α</translation>
        </message>
        <message>
            <source>Scale α of the adapters (α / r multiplies their output)</source>
            <translation>アダプターのスケール α（出力に α / r を掛けます）</translation>
        </message>
        <message>
            <source>LoRA dropout</source>
            <translation>LoRA ドロップアウト</translation>
        </message>
        <message>
            <source>Dropout on the adapters' input</source>
            <translation>アダプター入力のドロップアウト</translation>
        </message>
        <message>
            <source>Learning rate</source>
            <translation>学習率</translation>
        </message>
        <message>
            <source>AdamW's peak learning rate</source>
            <translation>AdamW の最大学習率</translation>
        </message>
        <message>
            <source>Weight decay</source>
            <translation>重み減衰</translation>
        </message>
        <message>
            <source>AdamW's decoupled weight decay</source>
            <translation>AdamW の分離型重み減衰</translation>
        </message>
        <message>
            <source>Max gradient norm</source>
            <translation>最大勾配ノルム</translation>
        </message>
        <message>
            <source>Gradients are clipped to this norm (0: no clipping)</source>
            <translation>勾配をこのノルムにクリップします（0: クリップなし）</translation>
        </message>
        <message>
            <source>Schedule</source>
            <translation>スケジュール</translation>
        </message>
        <message>
            <source>Learning-rate schedule after the warm-up</source>
            <translation>ウォームアップ後の学習率スケジュール</translation>
        </message>
        <message>
            <source>Warm-up ratio</source>
            <translation>ウォームアップ比率</translation>
        </message>
        <message>
            <source>Share of the steps spent warming up</source>
            <translation>ウォームアップに使うステップの割合</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>ステップ数</translation>
        </message>
        <message>
            <source>Optimizer steps of the run</source>
            <translation>この実行のオプティマイザーステップ数</translation>
        </message>
        <message>
            <source>Micro-batch</source>
            <translation>マイクロバッチ</translation>
        </message>
        <message>
            <source>Rows per forward / backward (memory, not maths)</source>
            <translation>順伝播 / 逆伝播あたりの行数（メモリのみに影響し、計算結果は変わりません）</translation>
        </message>
        <message>
            <source>grpo, bnpo, dr_grpo or dapo (docs/grpo.md)</source>
            <translation>grpo、bnpo、dr_grpo または dapo（docs/grpo.md）</translation>
        </message>
        <message>
            <source>Reward scaling</source>
            <translation>報酬のスケーリング</translation>
        </message>
        <message>
            <source>Advantages divided by the group's, the batch's or no standard deviation</source>
            <translation>アドバンテージをグループ、バッチの標準偏差で割るか、割らないか</translation>
        </message>
        <message>
            <source>Clip ε (low)</source>
            <translation>クリップ ε（下側）</translation>
        </message>
        <message>
            <source>The ratio is clipped to [1 − ε, 1 + ε_high]</source>
            <translation>比率を [1 − ε, 1 + ε_high] にクリップします</translation>
        </message>
        <message>
            <source>Clip ε (high)</source>
            <translation>クリップ ε（上側）</translation>
        </message>
        <message>
            <source>DAPO's clip-higher; equal to ε when absent</source>
            <translation>DAPO の clip-higher。指定がなければ ε と同じ</translation>
        </message>
        <message>
            <source>KL weight β</source>
            <translation>KL の重み β</translation>
        </message>
        <message>
            <source>k3 KL against the reference (the model with adapters off); 0: none</source>
            <translation>参照（アダプターを外したモデル）に対する k3 KL。0: なし</translation>
        </message>
        <message>
            <source>Updates per batch (μ)</source>
            <translation>バッチあたりの更新回数 (μ)</translation>
        </message>
        <message>
            <source>Policy updates per generation batch</source>
            <translation>生成バッチあたりの方策の更新回数</translation>
        </message>
        <message>
            <source>Mask truncated</source>
            <translation>打ち切りをマスク</translation>
        </message>
        <message>
            <source>Truncated completions get no gradient</source>
            <translation>打ち切られた出力には勾配を流しません</translation>
        </message>
        <message>
            <source>Over-long penalty</source>
            <translation>長すぎる出力へのペナルティ</translation>
        </message>
        <message>
            <source>DAPO's soft punishment of completions near the limit</source>
            <translation>上限に近い出力への DAPO のソフトなペナルティ</translation>
        </message>
        <message>
            <source>Over-long cache</source>
            <translation>ペナルティ区間</translation>
        </message>
        <message>
            <source>L_cache: tokens before the limit where the penalty starts</source>
            <translation>L_cache: ペナルティが始まる、上限の手前のトークン数</translation>
        </message>
        <message>
            <source>Evaluate every</source>
            <translation>評価の間隔</translation>
        </message>
        <message>
            <source>&gt; 0: evaluate before training, every N steps and at the end (needs validation data)</source>
            <translation>&gt; 0: 学習前、N ステップごと、最後に評価します（検証データが必要）</translation>
        </message>
        <message>
            <source>Evaluation e-mails</source>
            <translation>評価メール数</translation>
        </message>
        <message>
            <source>Validation e-mails per evaluation</source>
            <translation>1 回の評価に使う検証メールの数</translation>
        </message>
        <message>
            <source>Evaluation batch</source>
            <translation>評価バッチ</translation>
        </message>
        <message>
            <source>Prompts per generation call in evaluations</source>
            <translation>評価での生成 1 回あたりのプロンプト数</translation>
        </message>
        <message>
            <source>Evaluation max tokens</source>
            <translation>評価の最大トークン数</translation>
        </message>
        <message>
            <source>0: the max completion tokens</source>
            <translation>0: 最大出力トークン数と同じ</translation>
        </message>
        <message>
            <source>Checkpoint every</source>
            <translation>チェックポイントの間隔</translation>
        </message>
        <message>
            <source>&gt; 0: a checkpoint every N steps and at the end</source>
            <translation>&gt; 0: N ステップごとと最後にチェックポイントを保存します</translation>
        </message>
        <message>
            <source>Resume from</source>
            <translation>再開元</translation>
        </message>
        <message>
            <source>A checkpoint folder: continue that run</source>
            <translation>チェックポイントのフォルダー: その実行を続けます</translation>
        </message>
        <message>
            <source>Seed</source>
            <translation>シード</translation>
        </message>
        <message>
            <source>The same seed and config give the same run</source>
            <translation>同じシードと設定なら同じ実行になります</translation>
        </message>
        <message>
            <source>Weights dtype</source>
            <translation>重みのデータ型</translation>
        </message>
        <message>
            <source>float32, bfloat16, or auto (the model's)</source>
            <translation>float32、bfloat16、または auto（モデルのもの）</translation>
        </message>
        <message>
            <source>Precision</source>
            <translation>精度</translation>
        </message>
        <message>
            <source>bf16 autocast of the training forward, or fp32</source>
            <translation>学習時の順伝播を bf16 で自動キャストするか、fp32</translation>
        </message>
        <message>
            <source>Device</source>
            <translation>デバイス</translation>
        </message>
        <message>
            <source>auto: CUDA when there is a GPU</source>
            <translation>auto: GPU があれば CUDA</translation>
        </message>
        <message>
            <source>CPU threads</source>
            <translation>CPU スレッド数</translation>
        </message>
        <message>
            <source>0: every core</source>
            <translation>0: すべてのコア</translation>
        </message>
        <message>
            <source>on</source>
            <translation>オン</translation>
        </message>
        <message>
            <source>off</source>
            <translation>オフ</translation>
        </message>
        <message>
            <source>Default (the paper's table 4): %1</source>
            <translation>既定値（論文の表 4）: %1</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>参照…</translation>
        </message>
        <message>
            <source>%1: cannot read (%2)</source>
            <translation>%1: 読み込めません (%2)</translation>
        </message>
        <message>
            <source>%1: not a JSON object (%2)</source>
            <translation>%1: JSON オブジェクトではありません (%2)</translation>
        </message>
        <message>
            <source>%1: cannot write (%2)</source>
            <translation>%1: 書き込めません (%2)</translation>
        </message>
        <message>
            <source>%1: no such file</source>
            <translation>%1: ファイルがありません</translation>
        </message>
        <message>
            <source>%1: no such folder</source>
            <translation>%1: フォルダーがありません</translation>
        </message>
    </context>
</TS>
