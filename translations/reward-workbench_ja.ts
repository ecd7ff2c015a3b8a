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
</TS>
