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
        <name>rwb::widgets::FailureCategoryModel</name>
        <message>
            <source>Exact</source>
            <translation>完全一致</translation>
        </message>
        <message>
            <source>No answer</source>
            <translation>回答なし</translation>
        </message>
        <message>
            <source>Missed (said 不明)</source>
            <translation>見逃し（不明と回答）</translation>
        </message>
        <message>
            <source>Legal-entity marker only</source>
            <translation>法人格の違いのみ</translation>
        </message>
        <message>
            <source>Named a company where the answer is 不明</source>
            <translation>正解が不明なのに会社名を回答</translation>
        </message>
        <message>
            <source>Recipient's company</source>
            <translation>宛先の会社</translation>
        </message>
        <message>
            <source>Third party's company</source>
            <translation>第三者の会社</translation>
        </message>
        <message>
            <source>Invented (not in the input)</source>
            <translation>捏造（入力にない）</translation>
        </message>
        <message>
            <source>Other wrong span</source>
            <translation>その他の誤った範囲</translation>
        </message>
        <message>
            <source>The prediction equals the gold after normalization (NFKC, white space removed). 不明 for 不明 counts here.</source>
            <translation>正規化（NFKC、空白除去）後に予測が正解と一致します。正解が不明で不明と回答した場合もここに入ります。</translation>
        </message>
        <message>
            <source>The prediction is empty: the model wrote nothing, or in thinking mode no &lt;answer&gt; block.</source>
            <translation>予測が空です。モデルが何も出力しなかったか、思考モードで &lt;answer&gt; ブロックがありません。</translation>
        </message>
        <message>
            <source>The model answered 不明 although the e-mail states the sender's company.</source>
            <translation>メールに送信者の会社が書かれているのに、モデルは不明と回答しました。</translation>
        </message>
        <message>
            <source>Right company, but the legal-entity markers differ (株式会社, (株), … added, dropped or changed).</source>
            <translation>会社は正しいものの、法人格（株式会社、(株) など）の追加・欠落・違いがあります。</translation>
        </message>
        <message>
            <source>The e-mail does not state the sender's company (gold 不明), but the model named one.</source>
            <translation>メールに送信者の会社が書かれていない（正解は不明）のに、モデルは会社名を回答しました。</translation>
        </message>
        <message>
            <source>The model picked the company the e-mail is addressed to, not the sender's.</source>
            <translation>モデルは送信者ではなく、メールの宛先の会社を選びました。</translation>
        </message>
        <message>
            <source>The model picked another company the e-mail mentions (neither sender nor recipient).</source>
            <translation>モデルはメールに出てくる別の会社（送信者でも宛先でもない）を選びました。</translation>
        </message>
        <message>
            <source>Neither the prediction nor its name without markers occurs in the e-mail or its sender line.</source>
            <translation>予測も、法人格を除いた名前も、メール本文と送信者欄のどこにもありません。</translation>
        </message>
        <message>
            <source>The prediction is in the e-mail but is none of the above: a partial or overlapping span, a department, a person.</source>
            <translation>予測はメール内にありますが、上記のどれでもありません（部分的・重なった範囲、部署名、人名など）。</translation>
        </message>
        <message>
            <source>no company</source>
            <translation>会社名なし</translation>
        </message>
        <message>
            <source>overlaps the gold</source>
            <translation>正解と重なる</translation>
        </message>
        <message>
            <source>the recipient's company</source>
            <translation>宛先の会社</translation>
        </message>
        <message>
            <source>a third party's company</source>
            <translation>第三者の会社</translation>
        </message>
        <message>
            <source>elsewhere in the e-mail</source>
            <translation>メール内の別の箇所</translation>
        </message>
        <message>
            <source>not in the e-mail</source>
            <translation>メール内にない</translation>
        </message>
        <message>
            <source>Fixed (wrong at A, right at B)</source>
            <translation>改善（A で誤り、B で正解）</translation>
        </message>
        <message>
            <source>Broke (right at A, wrong at B)</source>
            <translation>悪化（A で正解、B で誤り）</translation>
        </message>
        <message>
            <source>%1 of %2 e-mails evaluated at both checkpoints</source>
            <translation>両方のチェックポイントで評価した %2 通中 %1 通</translation>
        </message>
        <message>
            <source>Category</source>
            <translation>分類</translation>
        </message>
        <message>
            <source>A</source>
            <translation>A</translation>
        </message>
        <message>
            <source>Count</source>
            <translation>件数</translation>
        </message>
        <message>
            <source>B</source>
            <translation>B</translation>
        </message>
        <message>
            <source>Share</source>
            <translation>割合</translation>
        </message>
        <message>
            <source>B − A</source>
            <translation>B − A</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::FailureExampleModel</name>
        <message>
            <source>(empty)</source>
            <translation>（空）</translation>
        </message>
        <message>
            <source>%1 → %2</source>
            <translation>%1 → %2</translation>
        </message>
        <message>
            <source>ID</source>
            <translation>ID</translation>
        </message>
        <message>
            <source>Prediction A</source>
            <translation>予測 A</translation>
        </message>
        <message>
            <source>Prediction</source>
            <translation>予測</translation>
        </message>
        <message>
            <source>Prediction B</source>
            <translation>予測 B</translation>
        </message>
        <message>
            <source>Gold</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>Category A → B</source>
            <translation>分類 A → B</translation>
        </message>
        <message>
            <source>Category</source>
            <translation>分類</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::FailureExplorer</name>
        <message>
            <source>Category at A (rows) → at B (columns); click a cell for its e-mails</source>
            <translation>A での分類（行）→ B での分類（列）。セルをクリックするとそのメールを表示します</translation>
        </message>
        <message>
            <source>The checkpoint whose predictions are grouped (A)</source>
            <translation>予測を分類するチェックポイント（A）</translation>
        </message>
        <message>
            <source>A second checkpoint to compare with (B)</source>
            <translation>比較する 2 つ目のチェックポイント（B）</translation>
        </message>
        <message>
            <source>Checkpoint A:</source>
            <translation>チェックポイント A:</translation>
        </message>
        <message>
            <source>compare with B:</source>
            <translation>比較対象 B:</translation>
        </message>
        <message>
            <source>Highlights:</source>
            <translation>強調表示:</translation>
        </message>
        <message>
            <source>gold</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>recipient</source>
            <translation>宛先</translation>
        </message>
        <message>
            <source>third party</source>
            <translation>第三者</translation>
        </message>
        <message>
            <source>prediction (A)</source>
            <translation>予測（A）</translation>
        </message>
        <message>
            <source>prediction B</source>
            <translation>予測 B</translation>
        </message>
        <message>
            <source>%1: run %2 has no stored evaluations</source>
            <translation>%1: 実行 %2 には保存された評価がありません</translation>
        </message>
        <message>
            <source>step %1</source>
            <translation>ステップ %1</translation>
        </message>
        <message>
            <source>run %1 of %2</source>
            <translation>%2 の実行 %1</translation>
        </message>
        <message>
            <source>recipients and third parties from the data</source>
            <translation>宛先と第三者はデータから</translation>
        </message>
        <message>
            <source>recipients and third parties guessed from the addressee block and legal-entity markers</source>
            <translation>宛先と第三者は宛名部分と法人格から推定</translation>
        </message>
        <message>
            <source>recipients and third parties from the data for %1 of %2 e-mails, guessed for the rest</source>
            <translation>宛先と第三者は %2 通中 %1 通はデータから、残りは推定</translation>
        </message>
        <message numerus="yes">
            <source>%1 — %n e-mail(s); %2</source>
            <translation>
                <numerusform>%1 — メール %n 通。%2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>; %n prediction(s) left out: their id is not in %1</source>
            <translation>
                <numerusform>。%n 件の予測は ID が %1 にないため除外</numerusform>
            </translation>
        </message>
        <message>
            <source>No evaluation open.</source>
            <translation>評価が開かれていません。</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>（なし）</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: &lt;span style="color:#1e8449"&gt;fixed %3&lt;/span&gt; (wrong at A, right at B), &lt;span style="color:#c0392b"&gt;broke %4&lt;/span&gt; (right at A, wrong at B), of %5 e-mails in both.</source>
            <translation>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: &lt;span style="color:#1e8449"&gt;改善 %3&lt;/span&gt;（A で誤り、B で正解）、&lt;span style="color:#c0392b"&gt;悪化 %4&lt;/span&gt;（A で正解、B で誤り）。両方にあるメール %5 通中。</translation>
        </message>
        <message>
            <source>Only at A: %1, only at B: %2.</source>
            <translation>A のみ: %1、B のみ: %2。</translation>
        </message>
        <message>
            <source>Fixed (wrong at A, right at B)</source>
            <translation>改善（A で誤り、B で正解）</translation>
        </message>
        <message>
            <source>Broke (right at A, wrong at B)</source>
            <translation>悪化（A で正解、B で誤り）</translation>
        </message>
        <message>
            <source>%1 at A → %2 at B</source>
            <translation>A で %1 → B で %2</translation>
        </message>
        <message numerus="yes">
            <source>%1: %n e-mail(s)</source>
            <translation>
                <numerusform>%1: メール %n 通</numerusform>
            </translation>
        </message>
        <message>
            <source>From: </source>
            <translation>差出人: </translation>
        </message>
        <message>
            <source>&lt;b&gt;Gold:&lt;/b&gt; %1</source>
            <translation>&lt;b&gt;正解:&lt;/b&gt; %1</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1:&lt;/b&gt; %2 — &lt;i&gt;%3&lt;/i&gt;</source>
            <translation>&lt;b&gt;%1:&lt;/b&gt; %2 — &lt;i&gt;%3&lt;/i&gt;</translation>
        </message>
        <message>
            <source>(empty)</source>
            <translation>（空）</translation>
        </message>
        <message>
            <source> (%1)</source>
            <translation>（%1）</translation>
        </message>
        <message>
            <source>Completion: %1</source>
            <translation>出力: %1</translation>
        </message>
        <message>
            <source>Prediction A</source>
            <translation>予測 A</translation>
        </message>
        <message>
            <source>Prediction</source>
            <translation>予測</translation>
        </message>
        <message>
            <source>Prediction B</source>
            <translation>予測 B</translation>
        </message>
        <message>
            <source>Recipient and third parties: from the data.</source>
            <translation>宛先と第三者: データから。</translation>
        </message>
        <message>
            <source>Recipient and third parties: guessed (addressee block, legal-entity markers).</source>
            <translation>宛先と第三者: 推定（宛名部分、法人格）。</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::FailureTransitionModel</name>
        <message>
            <source>exact</source>
            <translation>一致</translation>
        </message>
        <message>
            <source>empty</source>
            <translation>空</translation>
        </message>
        <message>
            <source>missed</source>
            <translation>見逃し</translation>
        </message>
        <message>
            <source>marker</source>
            <translation>法人格</translation>
        </message>
        <message>
            <source>not 不明</source>
            <translation>不明でない</translation>
        </message>
        <message>
            <source>recipient</source>
            <translation>宛先</translation>
        </message>
        <message>
            <source>third</source>
            <translation>第三者</translation>
        </message>
        <message>
            <source>invented</source>
            <translation>捏造</translation>
        </message>
        <message>
            <source>other</source>
            <translation>その他</translation>
        </message>
        <message numerus="yes">
            <source>%n e-mail(s): %1 at A, %2 at B</source>
            <translation>
                <numerusform>メール %n 通: A で %1、B で %2</numerusform>
            </translation>
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
        <name>rwb::widgets::GroupAdvantageView</name>
        <message>
            <source>Follow latest</source>
            <translation>最新を追う</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>The GRPO step whose groups are shown</source>
            <translation>グループを表示する GRPO のステップ</translation>
        </message>
        <message>
            <source>Show each new step as training writes it</source>
            <translation>学習が書き込んだ新しいステップを順に表示します</translation>
        </message>
        <message>
            <source>Each sample: its reward and advantage; the bar is the reward on the step's reward axis, blue for a positive advantage, red for a negative one; the black tick is the group's mean, the grey band its ±std. Click a sample to open it.</source>
            <translation>各サンプル: 報酬とアドバンテージ。バーはステップの報酬軸上の報酬で、アドバンテージが正なら青、負なら赤です。黒い目盛りはグループの平均、灰色の帯は ±標準偏差です。サンプルをクリックすると開きます。</translation>
        </message>
        <message>
            <source>Cannot open run %1 of %2: %3</source>
            <translation>%2 のラン %1 を開けません: %3</translation>
        </message>
        <message>
            <source>Cannot read step %1: %2</source>
            <translation>ステップ %1 を読み込めません: %2</translation>
        </message>
        <message>
            <source>No run open.</source>
            <translation>ランが開かれていません。</translation>
        </message>
        <message>
            <source>No step written yet.</source>
            <translation>まだステップが書き込まれていません。</translation>
        </message>
        <message>
            <source>Step %1 has no rollouts (an evaluation step or not written).</source>
            <translation>ステップ %1 にはロールアウトがありません（評価ステップか、未書き込みです）。</translation>
        </message>
        <message numerus="yes">
            <source>Step %1: G = %2, %n group(s), mean reward %3.</source>
            <translation>
                <numerusform>ステップ %1: G = %2、%n グループ、平均報酬 %3。</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 of %2 groups all equal — they teach nothing.</source>
            <translation>%2 グループ中 %1 グループは報酬がすべて同じです — 学習には寄与しません。</translation>
        </message>
        <message>
            <source>No group is all equal.</source>
            <translation>報酬がすべて同じグループはありません。</translation>
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
        <name>rwb::widgets::TokenView</name>
        <message>
            <source>Advantage</source>
            <translation>アドバンテージ</translation>
        </message>
        <message>
            <source>Ratio to the old policy</source>
            <translation>旧方策との比</translation>
        </message>
        <message>
            <source>Entropy</source>
            <translation>エントロピー</translation>
        </message>
        <message>
            <source>What the token colours show</source>
            <translation>トークンの色が表す量</translation>
        </message>
        <message>
            <source>Colour by</source>
            <translation>色分け</translation>
        </message>
        <message>
            <source>Cannot read rollout %1: %2</source>
            <translation>ロールアウト %1 を読み込めません: %2</translation>
        </message>
        <message>
            <source>Run %1 of %2: its config names no "model" folder, so its tokens cannot be decoded.</source>
            <translation>%2 のラン %1: 設定に "model" フォルダーがないため、トークンをデコードできません。</translation>
        </message>
        <message>
            <source>The model folder %1 of run %2 does not exist, so its tokens cannot be decoded.</source>
            <translation>ラン %2 のモデルフォルダー %1 が存在しないため、トークンをデコードできません。</translation>
        </message>
        <message>
            <source>Cannot read the tokenizer of model folder %1: %2</source>
            <translation>モデルフォルダー %1 のトークナイザーを読み込めません: %2</translation>
        </message>
        <message numerus="yes">
            <source>Rollout %1 · run %2, step %3, group %4, sample %5 · reward %6, advantage %7 · %n token(s)</source>
            <translation>
                <numerusform>ロールアウト %1 · ラン %2、ステップ %3、グループ %4、サンプル %5 · 報酬 %6、アドバンテージ %7 · %n トークン</numerusform>
            </translation>
        </message>
        <message>
            <source>No rollout shown. Click a sample to see its tokens.</source>
            <translation>ロールアウトが表示されていません。サンプルをクリックするとトークンを表示します。</translation>
        </message>
        <message>
            <source>Token %1 of %2: “%3” (id %4)</source>
            <translation>トークン %1 / %2: 「%3」（ID %4）</translation>
        </message>
        <message>
            <source>A special token: not part of the completion's text.</source>
            <translation>特殊トークン: 生成文のテキストには含まれません。</translation>
        </message>
        <message>
            <source>Bytes %1: the start of a character that a later token finishes.</source>
            <translation>バイト %1: 後続のトークンで完成する文字の先頭部分です。</translation>
        </message>
        <message>
            <source>Bytes %1 (with the bytes of earlier tokens they make “%2”).</source>
            <translation>バイト %1（前のトークンのバイトと合わせて「%2」になります）。</translation>
        </message>
        <message>
            <source>log-prob old %1, new %2</source>
            <translation>対数確率 旧 %1、新 %2</translation>
        </message>
        <message>
            <source>ratio %1 (log ratio %2)</source>
            <translation>比 %1（対数比 %2）</translation>
        </message>
        <message>
            <source>ratio: not stored (no log-probs of the update)</source>
            <translation>比: 保存されていません（更新時の対数確率がありません）</translation>
        </message>
        <message>
            <source>advantage %1 (the sequence's advantage: the same for every token)</source>
            <translation>アドバンテージ %1（系列のアドバンテージ: すべてのトークンで同じ）</translation>
        </message>
        <message>
            <source>advantage %1</source>
            <translation>アドバンテージ %1</translation>
        </message>
        <message>
            <source>entropy %1 nats</source>
            <translation>エントロピー %1 nats</translation>
        </message>
        <message>
            <source>entropy: not stored (written before entropies were kept, or not trained on)</source>
            <translation>エントロピー: 保存されていません（エントロピーを保存する前に書き込まれたか、学習に使われていません）</translation>
        </message>
        <message>
            <source>Advantage: GRPO's advantage is the sequence's, the same for every token.</source>
            <translation>アドバンテージ: GRPO のアドバンテージは系列単位で、すべてのトークンで同じです。</translation>
        </message>
        <message>
            <source>Advantage of each token, as the loss used it.</source>
            <translation>損失で使われた各トークンのアドバンテージ。</translation>
        </message>
        <message>
            <source>Ratio π_new / π_old = exp(log-prob new − log-prob old), coloured on a log scale; outside [0.8, 1.2] PPO's clip usually acts.</source>
            <translation>比 π_new / π_old = exp(新しい対数確率 − 古い対数確率)。対数スケールで色分けしています。[0.8, 1.2] の外では通常 PPO のクリップが働きます。</translation>
        </message>
        <message>
            <source>Ratio: not stored for this rollout (its group was not trained on).</source>
            <translation>比: このロールアウトには保存されていません（そのグループは学習に使われていません）。</translation>
        </message>
        <message>
            <source>%1 nats</source>
            <translation>%1 nats</translation>
        </message>
        <message>
            <source>Entropy of the policy at each token, in nats, from the update's forward pass.</source>
            <translation>各トークンでの方策のエントロピー（nats）。更新時の順伝播から求めたものです。</translation>
        </message>
        <message>
            <source>Entropies not stored for this rollout (written before they were kept, or not trained on).</source>
            <translation>このロールアウトにはエントロピーが保存されていません（保存する前に書き込まれたか、学習に使われていません）。</translation>
        </message>
    </context>
</TS>
