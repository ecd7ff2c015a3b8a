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
            <source>Following run %1 of %2 as another process writes it</source>
            <translation>別のプロセスが書き込み中の %2 の実行 %1 を追跡しています</translation>
        </message>
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
            <source>About Reward Workbench</source>
            <translation>Reward Workbench について</translation>
        </message>
        <message>
            <source>&lt;h3&gt;Reward Workbench %1&lt;/h3&gt;&lt;p&gt;Design rewards for GRPO fine-tuning, see what each component gives on real samples, and debug failed extractions.&lt;/p&gt;</source>
            <translation>&lt;h3&gt;Reward Workbench %1&lt;/h3&gt;&lt;p&gt;GRPO ファインチューニング用の報酬を設計し、各コンポーネントが実際のサンプルに与える値を確かめ、抽出の失敗をデバッグします。&lt;/p&gt;</translation>
        </message>
        <message>
            <source>Reward Workbench — %1</source>
            <translation>Reward Workbench — %1</translation>
        </message>
        <message>
            <source>Reward design</source>
            <translation>報酬設計</translation>
        </message>
        <message>
            <source>Curves</source>
            <translation>曲線</translation>
        </message>
        <message>
            <source>Group advantages</source>
            <translation>グループのアドバンテージ</translation>
        </message>
        <message>
            <source>Rollouts</source>
            <translation>ロールアウト</translation>
        </message>
        <message>
            <source>Failures</source>
            <translation>失敗の分析</translation>
        </message>
        <message>
            <source>Training setup</source>
            <translation>学習の設定</translation>
        </message>
        <message>
            <source>Runs</source>
            <translation>実行</translation>
        </message>
        <message>
            <source>Tokens</source>
            <translation>トークン</translation>
        </message>
        <message>
            <source>Log</source>
            <translation>ログ</translation>
        </message>
        <message>
            <source>Training</source>
            <translation>学習</translation>
        </message>
        <message>
            <source>&amp;Training</source>
            <translation>学習(&amp;T)</translation>
        </message>
        <message>
            <source>Export curves as &amp;PNG…</source>
            <translation>曲線を PNG で書き出す(&amp;P)…</translation>
        </message>
        <message>
            <source>Export curves as &amp;CSV…</source>
            <translation>曲線を CSV で書き出す(&amp;C)…</translation>
        </message>
        <message>
            <source>Resume the selected run from its last checkpoint</source>
            <translation>選んだ実行を最後のチェックポイントから再開</translation>
        </message>
        <message>
            <source>Overlay the selected run on the curves</source>
            <translation>選んだ実行を曲線に重ねて表示</translation>
        </message>
        <message>
            <source>Workspace: %1</source>
            <translation>ワークスペース: %1</translation>
        </message>
        <message>
            <source>No workspace</source>
            <translation>ワークスペースなし</translation>
        </message>
        <message>
            <source>Quit</source>
            <translation>終了</translation>
        </message>
        <message>
            <source>A training run is in progress. Stop it after the step in flight (a checkpoint is saved) and quit?</source>
            <translation>学習を実行中です。実行中のステップの後で停止し(チェックポイントを保存します)、終了しますか?</translation>
        </message>
        <message>
            <source>The last workspace did not open: %1</source>
            <translation>前回のワークスペースを開けませんでした: %1</translation>
        </message>
        <message>
            <source>The last run did not open: %1</source>
            <translation>前回の実行を開けませんでした: %1</translation>
        </message>
        <message>
            <source>Open run store</source>
            <translation>実行ストアを開く</translation>
        </message>
        <message>
            <source>Run %1 of %2</source>
            <translation>%2 の実行 %1</translation>
        </message>
        <message>
            <source>Open run</source>
            <translation>実行を開く</translation>
        </message>
        <message>
            <source>Overlay run</source>
            <translation>実行を重ねて表示</translation>
        </message>
        <message>
            <source>Resume run</source>
            <translation>実行を再開</translation>
        </message>
        <message>
            <source>Judge</source>
            <translation>審査</translation>
        </message>
        <message>
            <source>Run %1 deleted</source>
            <translation>実行 %1 を削除しました</translation>
        </message>
        <message>
            <source>&amp;Jobs</source>
            <translation>ジョブ(&amp;J)</translation>
        </message>
        <message>
            <source>Jobs</source>
            <translation>ジョブ</translation>
        </message>
        <message>
            <source>“%1” is running in the background. Stop it at its next step (what it did so far is kept where the command allows) and quit?</source>
            <translation>「%1」がバックグラウンドで実行中です。次の区切りで止めて(コマンドが許す限りそれまでの結果は残ります)終了しますか?</translation>
        </message>
        <message>
            <source>Stopping “%1” before quitting…</source>
            <translation>終了する前に「%1」を止めています…</translation>
        </message>
    </context>
    <context>
        <name>DesignerActions</name>
        <message>
            <source>Open the bundled &amp;legal-QA samples</source>
            <translation>同梱の法律QAサンプルを開く(&amp;L)</translation>
        </message>
        <message>
            <source>Open samples</source>
            <translation>サンプルを開く</translation>
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
            <source>%1; the Designer shows the task&apos;s components. Open samples of it (its records with a "completion") to score them.</source>
            <translation>%1。デザイナーにタスクのコンポーネントを表示しました。採点するには、そのタスクのサンプル（"completion" を持つレコード）を開いてください。</translation>
        </message>
        <message>
            <source>Make your own task from your JSONL records: a task description and a starter reward config, no code</source>
            <translation>JSONL のレコードから独自のタスクを作ります: タスク記述と最初の報酬設定を、コードなしで</translation>
        </message>
        <message>
            <source>New task from data</source>
            <translation>データから新しいタスク</translation>
        </message>
        <message>
            <source>Wrote %1 and %2 in %3</source>
            <translation>%3 に %1 と %2 を書き込みました</translation>
        </message>
        <message>
            <source>New tas&amp;k from data…</source>
            <translation>データから新しいタスク(&amp;K)…</translation>
        </message>
    </context>
    <context>
        <name>WorkspaceActions</name>
        <message>
            <source>&amp;New workspace…</source>
            <translation>新しいワークスペース(&amp;N)…</translation>
        </message>
        <message>
            <source>Open &amp;workspace…</source>
            <translation>ワークスペースを開く(&amp;W)…</translation>
        </message>
        <message>
            <source>Open run s&amp;tore…</source>
            <translation>実行ストアを開く(&amp;T)…</translation>
        </message>
        <message>
            <source>Read another trainer&apos;s rollout dump folder into a run of the open run store</source>
            <translation>他のトレーナーが書き出したロールアウトのフォルダーを、開いている実行ストアの実行として読み込みます</translation>
        </message>
        <message>
            <source>Opened workspace %1</source>
            <translation>ワークスペース %1 を開きました</translation>
        </message>
        <message>
            <source>New workspace (an empty folder)</source>
            <translation>新しいワークスペース(空のフォルダー)</translation>
        </message>
        <message>
            <source>New workspace</source>
            <translation>新しいワークスペース</translation>
        </message>
        <message>
            <source>Open workspace</source>
            <translation>ワークスペースを開く</translation>
        </message>
        <message>
            <source>Open run store</source>
            <translation>実行ストアを開く</translation>
        </message>
        <message>
            <source>Run stores (*.sqlite *.db);;All files (*)</source>
            <translation>実行ストア (*.sqlite *.db);;すべてのファイル (*)</translation>
        </message>
        <message>
            <source>Import rollouts</source>
            <translation>ロールアウトの取り込み</translation>
        </message>
        <message>
            <source>Run store to import into</source>
            <translation>取り込み先の実行ストア</translation>
        </message>
        <message>
            <source>Importing %1…</source>
            <translation>%1 を取り込み中…</translation>
        </message>
        <message>
            <source>Nothing was imported: %1</source>
            <translation>何も取り込んでいません: %1</translation>
        </message>
        <message numerus="yes">
            <source>Imported %1 (%2): %n step(s), %3 rollouts in %4 groups, as run %5 of %6.</source>
            <translation>
                <numerusform>%1 (%2) を取り込みました: %n ステップ、%4 グループの %3 件のロールアウトを %6 の実行 %5 として。</numerusform>
            </translation>
        </message>
        <message>
            <source>Kept only in each rollout&apos;s details: %1</source>
            <translation>各ロールアウトの詳細にだけ残した項目: %1</translation>
        </message>
        <message>
            <source>Skipped: %1</source>
            <translation>スキップ: %1</translation>
        </message>
        <message>
            <source>&amp;Import rollouts of verl, TRL, OpenRLHF, prime-rl or NeMo-RL…</source>
            <translation>verl・TRL・OpenRLHF・prime-rl・NeMo-RL のロールアウトを取り込む(&amp;I)…</translation>
        </message>
        <message>
            <source>The rollout dump folder (verl&apos;s rollout_data_dir, TRL&apos;s completions, OpenRLHF&apos;s samples, prime-rl&apos;s rollouts, NeMo-RL&apos;s log folder)</source>
            <translation>ロールアウトの書き出しフォルダー（verl の rollout_data_dir、TRL の completions、OpenRLHF のサンプル、prime-rl の rollouts、NeMo-RL のログフォルダー）</translation>
        </message>
    </context>
    <context>
        <name>RunViews</name>
        <message>
            <source>Run %1 (written by another process): %2</source>
            <translation>実行 %1（別のプロセスが書き込み）: %2</translation>
        </message>
        <message>
            <source>Run %1 (written by another process): %2: %3</source>
            <translation>実行 %1（別のプロセスが書き込み）: %2: %3</translation>
        </message>
        <message>
            <source>Judge calls</source>
            <translation>審査の呼び出し</translation>
        </message>
        <message>
            <source>finished</source>
            <translation>完了</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失敗</translation>
        </message>
        <message>
            <source>The run has no two evaluated checkpoints to compare yet.</source>
            <translation>この実行には、比較できる評価済みのチェックポイントがまだ 2 つありません。</translation>
        </message>
        <message>
            <source>Export curves</source>
            <translation>曲線の書き出し</translation>
        </message>
        <message>
            <source>PNG images (*.png)</source>
            <translation>PNG 画像 (*.png)</translation>
        </message>
        <message>
            <source>CSV files (*.csv)</source>
            <translation>CSV ファイル (*.csv)</translation>
        </message>
        <message>
            <source>Saved %1</source>
            <translation>%1 を保存しました</translation>
        </message>
        <message>
            <source>⚠ Reward-hacking alert</source>
            <translation>⚠ 報酬ハッキングのアラート</translation>
        </message>
        <message>
            <source>%1
Click to see it on the curves.</source>
            <translation>%1
クリックすると曲線で確認できます。</translation>
        </message>
    </context>
    <context>
        <name>TreeWindows</name>
        <message>
            <source>Preference pairs live in a run store: open the trees from a run store (File → Open run store, or --mcts store.sqlite) to annotate them.</source>
            <translation>選好ペアは実行ストアに保存されます。注釈するには木を実行ストアから開いてください(ファイル → 実行ストアを開く、または --mcts store.sqlite)。</translation>
        </message>
        <message>
            <source>Open a search tree &amp;record…</source>
            <translation>探索木の記録を開く(&amp;R)…</translation>
        </message>
        <message>
            <source>Open a folder of search tree records…</source>
            <translation>探索木の記録のフォルダーを開く…</translation>
        </message>
        <message>
            <source>Search &amp;trees</source>
            <translation>探索木(&amp;T)</translation>
        </message>
        <message>
            <source>&amp;Annotate preference pairs…</source>
            <translation>選好ペアを注釈する(&amp;A)…</translation>
        </message>
        <message>
            <source>Preference pairs</source>
            <translation>選好ペア</translation>
        </message>
        <message>
            <source>Search trees</source>
            <translation>探索木</translation>
        </message>
        <message>
            <source>Compare siblings</source>
            <translation>兄弟ステップを比較</translation>
        </message>
        <message>
            <source>Annotate the preference pairs of a run store</source>
            <translation>実行ストアの選好ペアを注釈する</translation>
        </message>
        <message>
            <source>Run stores (*.sqlite *.db);;All files (*)</source>
            <translation>実行ストア (*.sqlite *.db);;すべてのファイル (*)</translation>
        </message>
        <message>
            <source>Pair set</source>
            <translation>ペアセット</translation>
        </message>
        <message>
            <source>The pair set to annotate:</source>
            <translation>注釈するペアセット:</translation>
        </message>
        <message>
            <source>Annotate preference pairs</source>
            <translation>選好ペアの注釈</translation>
        </message>
        <message>
            <source>Cannot compare nodes %1 and %2: %3</source>
            <translation>ノード %1 と %2 を比較できません: %3</translation>
        </message>
        <message>
            <source>Search trees — run %1 of %2</source>
            <translation>探索木 — %2 の実行 %1</translation>
        </message>
        <message>
            <source>Search trees — %1</source>
            <translation>探索木 — %1</translation>
        </message>
        <message>
            <source>%1 has no tree search runs (rwb mcts run writes them).</source>
            <translation>%1 には木探索の実行がありません（rwb mcts run が書き込みます）。</translation>
        </message>
        <message>
            <source>Open a folder of search tree records</source>
            <translation>探索木の記録のフォルダーを開く</translation>
        </message>
        <message>
            <source>Open a search tree record</source>
            <translation>探索木の記録を開く</translation>
        </message>
        <message>
            <source>Search tree records (*.json);;Run stores (*.sqlite *.db);;All files (*)</source>
            <translation>探索木の記録 (*.json);;実行ストア (*.sqlite *.db);;すべてのファイル (*)</translation>
        </message>
    </context>
    <context>
        <name>JobActions</name>
        <message>
            <source>How many e-mails (split into train, validation and test):</source>
            <translation>メールの件数(学習・検証・テストに分けます):</translation>
        </message>
        <message>
            <source>S&amp;ynthesize e-mails…</source>
            <translation>メールを合成(&amp;Y)…</translation>
        </message>
        <message>
            <source>Train a &amp;tokenizer…</source>
            <translation>トークナイザーを学習(&amp;T)…</translation>
        </message>
        <message>
            <source>New tiny &amp;model…</source>
            <translation>新しい小型モデル(&amp;M)…</translation>
        </message>
        <message>
            <source>S&amp;FT from a config…</source>
            <translation>設定から SFT(&amp;F)…</translation>
        </message>
        <message>
            <source>&amp;Evaluate a checkpoint…</source>
            <translation>チェックポイントを評価(&amp;E)…</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>キャンセル</translation>
        </message>
        <message>
            <source>Cancel the background job</source>
            <translation>バックグラウンドのジョブをキャンセルします</translation>
        </message>
        <message>
            <source>Background job</source>
            <translation>バックグラウンドのジョブ</translation>
        </message>
        <message>
            <source>Open or create a workspace first: data, models and configs go into its folders.</source>
            <translation>先にワークスペースを開くか作成してください。データ、モデル、設定はそのフォルダーに入ります。</translation>
        </message>
        <message>
            <source>Synthesize e-mails</source>
            <translation>メールの合成</translation>
        </message>
        <message>
            <source>Another background job is running.</source>
            <translation>別のバックグラウンドのジョブを実行中です。</translation>
        </message>
        <message>
            <source>Train a tokenizer</source>
            <translation>トークナイザーの学習</translation>
        </message>
        <message>
            <source>Train a tokenizer: the training data</source>
            <translation>トークナイザーの学習: 学習データ</translation>
        </message>
        <message>
            <source>Extraction data (*.jsonl)</source>
            <translation>抽出データ (*.jsonl)</translation>
        </message>
        <message>
            <source>Vocabulary size:</source>
            <translation>語彙サイズ:</translation>
        </message>
        <message>
            <source>New tiny model</source>
            <translation>新しい小型モデル</translation>
        </message>
        <message>
            <source>New tiny model: the tokenizer folder</source>
            <translation>新しい小型モデル: トークナイザーのフォルダー</translation>
        </message>
        <message>
            <source>SFT from a config</source>
            <translation>設定から SFT</translation>
        </message>
        <message>
            <source>SFT: the config (JSON, as rwb sft takes)</source>
            <translation>SFT: 設定(rwb sft と同じ JSON)</translation>
        </message>
        <message>
            <source>SFT configs (*.json)</source>
            <translation>SFT の設定 (*.json)</translation>
        </message>
        <message>
            <source>Evaluate a checkpoint</source>
            <translation>チェックポイントの評価</translation>
        </message>
        <message>
            <source>Open a GRPO run first (Runs, or File → Open run store).</source>
            <translation>先に GRPO の実行を開いてください(「実行」または「ファイル → 実行ストアを開く」)。</translation>
        </message>
        <message>
            <source>Run %1 has no checkpoint.</source>
            <translation>実行 %1 にはチェックポイントがありません。</translation>
        </message>
        <message>
            <source>step %1 — %2</source>
            <translation>ステップ %1 — %2</translation>
        </message>
        <message>
            <source>Checkpoint:</source>
            <translation>チェックポイント:</translation>
        </message>
        <message>
            <source>Another background job is running: cancel it first or wait for it (Jobs dock).</source>
            <translation>別のバックグラウンドジョブが実行中です。先に取り消すか終わるのを待ってください(ジョブ ドック)。</translation>
        </message>
        <message>
            <source>%1: finished</source>
            <translation>%1: 完了</translation>
        </message>
    </context>
    <context>
        <name>TrainingActions</name>
        <message>
            <source>Apply these weights to the run “%1” from its next step?

%2

The change is stored with its step and marked on the curves.</source>
            <translation>この重みを実行「%1」の次のステップから適用しますか?

%2

変更はそのステップとともに保存され、曲線に印が付きます。</translation>
        </message>
        <message>
            <source>Error: %1</source>
            <translation>エラー: %1</translation>
        </message>
        <message>
            <source>Training failed</source>
            <translation>学習に失敗しました</translation>
        </message>
        <message>
            <source>Paused after step %1</source>
            <translation>ステップ %1 の後で一時停止しました</translation>
        </message>
        <message>
            <source>&amp;Start</source>
            <translation>開始(&amp;S)</translation>
        </message>
        <message>
            <source>Start GRPO training with the training setup and the Designer's reward weights</source>
            <translation>学習の設定とデザイナーの報酬の重みで GRPO 学習を開始します</translation>
        </message>
        <message>
            <source>&amp;Pause</source>
            <translation>一時停止(&amp;P)</translation>
        </message>
        <message>
            <source>Pause after the step in flight</source>
            <translation>実行中のステップの後で一時停止します</translation>
        </message>
        <message>
            <source>&amp;Resume</source>
            <translation>再開(&amp;R)</translation>
        </message>
        <message>
            <source>St&amp;op</source>
            <translation>停止(&amp;O)</translation>
        </message>
        <message>
            <source>Stop after the step in flight and save a checkpoint</source>
            <translation>実行中のステップの後で停止し、チェックポイントを保存します</translation>
        </message>
        <message>
            <source>Run %1 is a %2 run; only GRPO runs resume here.</source>
            <translation>実行 %1 は %2 の実行です。ここで再開できるのは GRPO の実行だけです。</translation>
        </message>
        <message>
            <source>Run %1 has no checkpoint to resume from.</source>
            <translation>実行 %1 には再開に使えるチェックポイントがありません。</translation>
        </message>
        <message>
            <source>A training run is already in progress.</source>
            <translation>すでに学習を実行中です。</translation>
        </message>
        <message>
            <source>Starting GRPO: %1</source>
            <translation>GRPO を開始します: %1</translation>
        </message>
        <message>
            <source>Start training</source>
            <translation>学習の開始</translation>
        </message>
        <message>
            <source>The training setup has problems:
%1</source>
            <translation>学習の設定に問題があります:
%1</translation>
        </message>
        <message>
            <source>%1: starting…</source>
            <translation>%1: 開始中…</translation>
        </message>
        <message>
            <source>%1 · evaluated the start (%2 %3) · training…</source>
            <translation>%1 · 開始時点を評価しました(%2 %3)· 学習中…</translation>
        </message>
        <message>
            <source>%1 · step %2/%3 · reward %4 · %5 tok/s · ETA %6</source>
            <translation>%1 · ステップ %2/%3 · 報酬 %4 · %5 トークン/秒 · 残り %6</translation>
        </message>
        <message>
            <source>Change reward weights</source>
            <translation>報酬の重みの変更</translation>
        </message>
        <message>
            <source>New weights go to the run at its next step</source>
            <translation>新しい重みは実行の次のステップから適用されます</translation>
        </message>
        <message>
            <source>Reward weights changed at step %1: %2</source>
            <translation>ステップ %1 で報酬の重みを変更しました: %2</translation>
        </message>
        <message>
            <source>finished</source>
            <translation>完了</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失敗</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
        <message>
            <source>Run %1</source>
            <translation>実行は%1</translation>
        </message>
        <message>
            <source>Run %1: %2</source>
            <translation>実行は%1: %2</translation>
        </message>
        <message>
            <source>%1 already holds files; this run writes to %2</source>
            <translation>%1 には既にファイルがあります。この実行は %2 に書き込みます</translation>
        </message>
        <message>
            <source>%1 · %2 processes · step %3/%4 · %5%6</source>
            <translation>%1 · %2 プロセス · ステップ %3/%4 · %5%6</translation>
        </message>
        <message>
            <source>%1: cannot write the run&apos;s config (%2)</source>
            <translation>%1: ランの設定を書き込めません(%2)</translation>
        </message>
        <message>
            <source>%1: cannot write the run&apos;s control file (%2)</source>
            <translation>%1: ランの制御ファイルを書き込めません(%2)</translation>
        </message>
        <message>
            <source>%1: starting %2 processes…</source>
            <translation>%1: %2 プロセスを起動中…</translation>
        </message>
        <message>
            <source>Another background job is running (Jobs dock): a run of several processes goes through the job runner; cancel the job or wait for it.</source>
            <translation>別のバックグラウンドジョブが実行中です(ジョブ ドック)。複数プロセスのランはジョブ実行器を通るため、そのジョブを取り消すか終わるのを待ってください。</translation>
        </message>
        <message>
            <source>Another background job is running.</source>
            <translation>別のバックグラウンドジョブが実行中です。</translation>
        </message>
        <message>
            <source>GRPO in %1 processes: %2</source>
            <translation>%1 プロセスの GRPO: %2</translation>
        </message>
        <message>
            <source>Reward weights sent to the run: %1</source>
            <translation>報酬の重みをランに送りました: %1</translation>
        </message>
        <message>
            <source>The run pauses after the step in flight</source>
            <translation>ランは実行中のステップの後で一時停止します</translation>
        </message>
        <message>
            <source>The run stops after the step in flight</source>
            <translation>ランは実行中のステップの後で停止します</translation>
        </message>
        <message>
            <source>Training</source>
            <translation>学習</translation>
        </message>
        <message>
            <source> · ETA %1</source>
            <translation> · 残り %1</translation>
        </message>
    </context>
    <context>
        <name>RewardDesigner</name>
        <message>
            <source>%1: the samples are of the task &quot;%2&quot;, which this build does not have</source>
            <translation>%1: サンプルのタスク「%2」はこのビルドにありません</translation>
        </message>
        <message>
            <source>%1: cannot copy to a temporary file</source>
            <translation>%1: 一時ファイルにコピーできません</translation>
        </message>
        <message>
            <source>%1: the config is for the task &quot;%2&quot;; the samples are of &quot;%3&quot;. Open samples of that task first.</source>
            <translation>%1: この設定はタスク「%2」用ですが、サンプルは「%3」のものです。先にそのタスクのサンプルを開いてください。</translation>
        </message>
        <message>
            <source>Samples (*.jsonl);;All files (*)</source>
            <translation>サンプル (*.jsonl);;すべてのファイル (*)</translation>
        </message>
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
        <message>
            <source>No training run is in progress.</source>
            <translation>実行中の学習はありません。</translation>
        </message>
        <message>
            <source>“%1” is not a component of the running config; only the weights of its components can change during a run.</source>
            <translation>「%1」は実行中の設定のコンポーネントではありません。実行中に変えられるのは、その設定のコンポーネントの重みだけです。</translation>
        </message>
        <message>
            <source>All weights are 0: give at least one component a weight.</source>
            <translation>すべての重みが 0 です。少なくとも 1 つのコンポーネントに重みを付けてください。</translation>
        </message>
        <message>
            <source>Apply to the run</source>
            <translation>実行に適用</translation>
        </message>
        <message>
            <source>The training run uses %1. Your weights differ: they re-score the samples here and reach the run only when you apply them (from its next step).</source>
            <translation>学習中の実行は %1 を使っています。ここでの重みはそれと異なります。サンプルはすぐに採点し直されますが、実行に届くのは適用したときだけです(次のステップから)。</translation>
        </message>
        <message>
            <source>The training run uses these weights (%1).</source>
            <translation>学習中の実行はこの重み(%1)を使っています。</translation>
        </message>
        <message>
            <source>Apply to the run…</source>
            <translation>実行に適用…</translation>
        </message>
        <message>
            <source>Send these weights to the training run; they apply from its next step</source>
            <translation>この重みを学習中の実行に送ります。次のステップから適用されます</translation>
        </message>
        <message>
            <source>Revert to the run's</source>
            <translation>実行の重みに戻す</translation>
        </message>
        <message>
            <source>The run was started in thinking mode; the mode cannot change during a run.</source>
            <translation>この実行は思考モードで開始されました。実行中にモードは変えられません。</translation>
        </message>
        <message>
            <source>The run was started without thinking mode; the mode cannot change during a run.</source>
            <translation>この実行は思考モードなしで開始されました。実行中にモードは変えられません。</translation>
        </message>
        <message numerus="yes">
            <source>%n score(s) are None: the judge gave no verdict. %1</source>
            <translation>
                <numerusform>%n 件のスコアがなし（審査モデルが判定を返しませんでした）。%1</numerusform>
            </translation>
        </message>
        <message>
            <source>Ask the judge again for every weighted judge score (answers already in come from the cache)</source>
            <translation>重みのある審査スコアをすべて審査モデルに問い合わせ直します（受け取り済みの応答はキャッシュから）</translation>
        </message>
        <message>
            <source>Asking the judge: %1 of %2 scores…</source>
            <translation>審査中：%2 件中 %1 件のスコア…</translation>
        </message>
        <message>
            <source>Asking the judge: 0 of %1 scores…</source>
            <translation>審査中：%1 件中 0 件のスコア…</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>キャンセル</translation>
        </message>
        <message>
            <source>Cancelled: the scores still missing are left unscored; Re-score asks for them.</source>
            <translation>キャンセルしました：未取得のスコアは未採点のままです。「再採点」で問い合わせます。</translation>
        </message>
        <message>
            <source>Judge</source>
            <translation>審査モデル</translation>
        </message>
        <message>
            <source>Judge calls</source>
            <translation>審査の呼び出し</translation>
        </message>
        <message>
            <source>Judge scores are up to date.</source>
            <translation>審査スコアは最新です。</translation>
        </message>
        <message>
            <source>Judge: %1</source>
            <translation>審査モデル：%1</translation>
        </message>
        <message>
            <source>No judge set up: the judge rewards are not scored.</source>
            <translation>審査モデルが未設定：審査報酬は採点されません。</translation>
        </message>
        <message>
            <source>Re-score</source>
            <translation>再採点</translation>
        </message>
        <message numerus="yes">
            <source>Re-scoring %n sample(s) with the edited rubric.</source>
            <translation>
                <numerusform>編集したルーブリックで %n 件のサンプルを再採点しています。</numerusform>
            </translation>
        </message>
        <message>
            <source>Score the judge rewards with these settings; verdicts already in stay when no request changes</source>
            <translation>この設定で審査報酬を採点します。リクエストが変わらなければ受け取り済みの判定はそのまま使います</translation>
        </message>
        <message>
            <source>Select a sample first.</source>
            <translation>先にサンプルを選んでください。</translation>
        </message>
        <message>
            <source>Show the Designer&apos;s judge calls in the Judge tab</source>
            <translation>デザイナーの審査の呼び出しを「審査」タブに表示します</translation>
        </message>
        <message>
            <source>Stop asking the judge: calls not sent yet are not sent</source>
            <translation>審査を止めます：まだ送っていない呼び出しは送りません</translation>
        </message>
        <message>
            <source>The LLM judge of the judge rewards (coverage, rubric_explicit, …). Only components with a weight above 0 are sent to it.</source>
            <translation>審査報酬（coverage、rubric_explicit など）を採点する LLM 審査モデル。重みが 0 より大きいコンポーネントだけを送ります。</translation>
        </message>
        <message numerus="yes">
            <source>The rubric is set for %n sample(s); give rubric_explicit or rubric_implicit a weight to judge them with it.</source>
            <translation>
                <numerusform>%n 件のサンプルにルーブリックを設定しました。このルーブリックで審査するには rubric_explicit か rubric_implicit に重みを付けてください。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The rubric is set for %n sample(s); set up a judge to score them.</source>
            <translation>
                <numerusform>%n 件のサンプルにルーブリックを設定しました。採点するには審査モデルを設定してください。</numerusform>
            </translation>
        </message>
        <message>
            <source>The rubric&apos;s sample is not among the samples any more.</source>
            <translation>ルーブリックのサンプルはもう読み込まれていません。</translation>
        </message>
        <message>
            <source>Use this judge</source>
            <translation>この審査モデルを使う</translation>
        </message>
        <message>
            <source>(unsaved)</source>
            <translation>（未保存）</translation>
        </message>
        <message>
            <source>Config: %1 — edited, not saved</source>
            <translation>設定: %1 — 編集済み・未保存</translation>
        </message>
        <message>
            <source>%1 (edited)</source>
            <translation>%1（編集済み）</translation>
        </message>
        <message>
            <source>The training run uses %1. Your weights were sent to it: they apply from its next step.</source>
            <translation>学習中の実行は %1 を使っています。あなたの重みは送信済みで、次のステップから適用されます。</translation>
        </message>
    </context>
    <context>
        <name>RewardHtml</name>
        <message>
            <source>Reward</source>
            <translation>報酬</translation>
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
        <message>
            <source>1 when the completion is &lt;reasoning&gt;…&lt;/reasoning&gt;, &lt;answer&gt;…&lt;/answer&gt; and &lt;citation&gt;…&lt;/citation&gt;, in that order and nothing else.</source>
            <translation>出力が &lt;reasoning&gt;…&lt;/reasoning&gt;、&lt;answer&gt;…&lt;/answer&gt;、&lt;citation&gt;…&lt;/citation&gt; をこの順に並べただけの形式なら 1。</translation>
        </message>
        <message>
            <source>0.5 when the format holds and at least one cited law code is among the sections in the prompt.</source>
            <translation>形式が正しく、引用した条文番号の少なくとも 1 つがプロンプト中の条文にあれば 0.5。</translation>
        </message>
        <message>
            <source>F1 of the cited law codes against the gold law codes.</source>
            <translation>引用した条文番号の正解の条文番号に対する F1。</translation>
        </message>
        <message>
            <source>Cosine similarity of the answer and the reference answer under the configured embedding (negative counts as 0).</source>
            <translation>設定した埋め込みでの回答と参照回答のコサイン類似度（負の値は 0 とみなす）。</translation>
        </message>
        <message>
            <source>An LLM judge&apos;s coverage of the reference answer&apos;s points: none 0, partial 0.5, full 1.</source>
            <translation>LLM 審査モデルが判定した、参照回答の要点の網羅度：なし 0、一部 0.5、すべて 1。</translation>
        </message>
        <message>
            <source>1 when an LLM judge finds nothing in the answer that contradicts the reference answer, else 0.</source>
            <translation>LLM 審査モデルが回答に参照回答と矛盾する点を見つけなければ 1、見つければ 0。</translation>
        </message>
        <message>
            <source>Each rubric item judged met or not; Σ weight·verdict over the positive weights (a met pitfall subtracts).</source>
            <translation>ルーブリックの各項目を満たすか審査し、Σ 重み·判定 を正の重みの和で割った値（満たした落とし穴項目は減点）。</translation>
        </message>
        <message>
            <source>An LLM judge&apos;s 1–10 rating given the whole rubric, mapped to (r − 1) / 9.</source>
            <translation>ルーブリック全体を見た LLM 審査モデルの 1–10 評価を (r − 1) / 9 に換算した値。</translation>
        </message>
        <message>
            <source>An LLM judge&apos;s 1–10 rating of the answer alone, mapped to (r − 1) / 9.</source>
            <translation>回答だけを見た LLM 審査モデルの 1–10 評価を (r − 1) / 9 に換算した値。</translation>
        </message>
        <message>
            <source>An LLM judge&apos;s 1–10 rating of the answer against the reference answer, mapped to (r − 1) / 9.</source>
            <translation>参照回答と比べた LLM 審査モデルの 1–10 評価を (r − 1) / 9 に換算した値。</translation>
        </message>
        <message>
            <source>The judge gave no verdict, so the reward is None and GRPO leaves this rollout out of its group: %1</source>
            <translation>審査モデルが判定を返さなかったため報酬は None となり、GRPO はこのロールアウトをグループの計算から除きます：%1</translation>
        </message>
        <message numerus="yes">
            <source>The judge&apos;s verdict gives %1 (%n call(s)).</source>
            <translation>
                <numerusform>審査モデルの判定による値は %1（呼び出し %n 回）。</numerusform>
            </translation>
        </message>
        <message>
            <source>The completion has the &lt;reasoning&gt;, &lt;answer&gt;, &lt;citation&gt; format: 1.</source>
            <translation>出力が &lt;reasoning&gt;、&lt;answer&gt;、&lt;citation&gt; の形式: 1。</translation>
        </message>
        <message>
            <source>The format does not hold (%1): 0.</source>
            <translation>形式が正しくない（%1）: 0。</translation>
        </message>
        <message>
            <source>Cites %1; at least one of them is in the prompt (%2): 0.5.</source>
            <translation>%1 を引用。少なくとも 1 つがプロンプト中の条文（%2）にある: 0.5。</translation>
        </message>
        <message>
            <source>Cites %1; none of them is in the prompt (%2): 0.</source>
            <translation>%1 を引用。どれもプロンプト中の条文（%2）にない: 0。</translation>
        </message>
        <message>
            <source>The format does not hold (%1), so no citation counts: 0.</source>
            <translation>形式が正しくない（%1）ので引用は数えない: 0。</translation>
        </message>
        <message>
            <source>Cited %1 against gold %2: precision %3, recall %4, F1 %5.</source>
            <translation>引用 %1、正解 %2: 適合率 %3、再現率 %4、F1 %5。</translation>
        </message>
        <message>
            <source>Similarity of the answer to the reference answer under %1: %2.</source>
            <translation>%1 での回答と参照回答の類似度: %2。</translation>
        </message>
        <message>
            <source>F1 of the answer&apos;s tokens against the gold answer&apos;s (numbers and Latin words whole, other characters one by one); 0 without an answer.</source>
            <translation>回答のトークンと正解のトークンの F1(数字と英単語は一語、その他の文字は一字ずつ)。回答がなければ 0。</translation>
        </message>
        <message>
            <source>1 when the answer equals the gold answer after normalization, else 0.</source>
            <translation>正規化した回答が正解と一致すれば 1、しなければ 0。</translation>
        </message>
        <message>
            <source>1 when the completion follows the step format (&lt;step&gt;, &lt;subquery&gt;, &lt;retrieval&gt;, &lt;subanswer&gt;) through at least one retrieval to an &lt;answer&gt;.</source>
            <translation>出力がステップ形式(&lt;step&gt;、&lt;subquery&gt;、&lt;retrieval&gt;、&lt;subanswer&gt;)に従い、1 回以上の検索を経て &lt;answer&gt; に至れば 1。</translation>
        </message>
        <message>
            <source>Answer &quot;%1&quot; against gold &quot;%2&quot;: precision %3, recall %4, F1 %5.</source>
            <translation>回答「%1」対 正解「%2」: 適合率 %3、再現率 %4、F1 %5。</translation>
        </message>
        <message>
            <source>The answer &quot;%1&quot; equals the gold answer: 1.</source>
            <translation>回答「%1」は正解と一致: 1。</translation>
        </message>
        <message>
            <source>The answer &quot;%1&quot; is not the gold answer &quot;%2&quot;: 0.</source>
            <translation>回答「%1」は正解「%2」ではない: 0。</translation>
        </message>
        <message>
            <source>The completion has no &lt;answer&gt; block: 0.</source>
            <translation>出力に &lt;answer&gt; ブロックがない: 0。</translation>
        </message>
        <message numerus="yes">
            <source>The step format holds through %n retrieval hop(s) to an answer: 1.</source>
            <translation>
                <numerusform>%n 回の検索ホップを経て回答まで、ステップ形式が保たれている: 1。</numerusform>
            </translation>
        </message>
        <message>
            <source>The step format does not hold (%1): 0.</source>
            <translation>ステップ形式が崩れている(%1): 0。</translation>
        </message>
        <message>
            <source>The example has no columns (it is not a record of a user&apos;s task), so the column "%1" cannot be read: None.</source>
            <translation>この例には列がない（ユーザーのタスクのレコードではない）ため、列「%1」を読めない: None。</translation>
        </message>
        <message>
            <source>The example has no column "%1": None.</source>
            <translation>この例に列「%1」がない: None。</translation>
        </message>
        <message>
            <source>The reply "%1" equals the reference "%2": 1.</source>
            <translation>応答「%1」が参照「%2」と一致: 1。</translation>
        </message>
        <message>
            <source>The reply "%1" differs from the reference "%2": 0.</source>
            <translation>応答「%1」が参照「%2」と異なる: 0。</translation>
        </message>
        <message>
            <source>The reply contains the forbidden string %1: 0.</source>
            <translation>応答に禁止文字列 %1 が含まれる: 0。</translation>
        </message>
        <message>
            <source>The reply contains none of the forbidden strings %1: 1.</source>
            <translation>応答に禁止文字列 %1 のどれも含まれない: 1。</translation>
        </message>
        <message>
            <source>%1 of the %2 required strings occur in the reply (missing: %3): %4.</source>
            <translation>必須文字列 %2 個のうち %1 個が応答に含まれる（欠落: %3）: %4。</translation>
        </message>
        <message>
            <source>The reply contains %1, one of the %2 required strings: 1.</source>
            <translation>応答に必須文字列 %2 個のうちの %1 が含まれる: 1。</translation>
        </message>
        <message>
            <source>The reply contains none of the %1 required strings (%2): 0.</source>
            <translation>応答に必須文字列 %1 個（%2）のどれも含まれない: 0。</translation>
        </message>
        <message>
            <source>The column "%1" is empty, so there is no string to look for: None.</source>
            <translation>列「%1」が空なので、探す文字列がない: None。</translation>
        </message>
        <message>
            <source>The pattern %1 matches "%2" in the reply: 1.</source>
            <translation>パターン %1 が応答中の「%2」に一致: 1。</translation>
        </message>
        <message>
            <source>The pattern %1 matches nowhere in the reply: 0.</source>
            <translation>パターン %1 が応答のどこにも一致しない: 0。</translation>
        </message>
        <message>
            <source>The whole reply matches the pattern %1: 1.</source>
            <translation>応答全体がパターン %1 に一致: 1。</translation>
        </message>
        <message>
            <source>The whole reply does not match the pattern %1: 0.</source>
            <translation>応答全体はパターン %1 に一致しない: 0。</translation>
        </message>
        <message>
            <source>The pattern %1 backtracked too much on the reply and gave up: None.</source>
            <translation>パターン %1 が応答でバックトラックしすぎて打ち切られた: None。</translation>
        </message>
        <message>
            <source>The reply&apos;s number %1 is within %4 of the reference&apos;s %2 (difference %3): 1.</source>
            <translation>応答の数値 %1 と参照の数値 %2 の差 %3 が %4 以内: 1。</translation>
        </message>
        <message>
            <source>The reply&apos;s number %1 is not within %4 of the reference&apos;s %2 (difference %3): 0.</source>
            <translation>応答の数値 %1 と参照の数値 %2 の差 %3 が %4 を超える: 0。</translation>
        </message>
        <message>
            <source>The reply holds no number (the reference&apos;s is %1): 0.</source>
            <translation>応答に数値がない（参照の数値は %1）: 0。</translation>
        </message>
        <message>
            <source>The gold holds no number: None.</source>
            <translation>正解に数値がない: None。</translation>
        </message>
        <message>
            <source>The column "%1" holds no number: None.</source>
            <translation>列「%1」に数値がない: None。</translation>
        </message>
        <message>
            <source>%1 tokens shared, of the reply&apos;s %2 and the reference&apos;s %3: precision %4, recall %5, F1 %6.</source>
            <translation>応答の %2 トークンと参照の %3 トークンのうち共通は %1: 適合率 %4、再現率 %5、F1 %6。</translation>
        </message>
        <message>
            <source>%1 characters shared, of the reply&apos;s %2 and the reference&apos;s %3: precision %4, recall %5, F1 %6.</source>
            <translation>応答の %2 文字と参照の %3 文字のうち共通は %1: 適合率 %4、再現率 %5、F1 %6。</translation>
        </message>
        <message>
            <source>The reply and the reference are both empty: 1.</source>
            <translation>応答と参照がどちらも空: 1。</translation>
        </message>
        <message>
            <source>The reply is empty: 0.</source>
            <translation>応答が空: 0。</translation>
        </message>
        <message>
            <source>The reference is empty: 0.</source>
            <translation>参照が空: 0。</translation>
        </message>
        <message>
            <source>The reply is not valid JSON (%1): 0.</source>
            <translation>応答が正しい JSON ではない（%1）: 0。</translation>
        </message>
        <message>
            <source>The reply is valid JSON (%1): 1.</source>
            <translation>応答は正しい JSON（%1）: 1。</translation>
        </message>
        <message>
            <source>The reply is valid JSON, but %1, not %2: 0.</source>
            <translation>応答は正しい JSON だが、%2 ではなく %1: 0。</translation>
        </message>
        <message>
            <source>The reply is valid JSON and matches the schema: 1.</source>
            <translation>応答は正しい JSON で、スキーマに適合: 1。</translation>
        </message>
        <message>
            <source>At %1 the schema allows no value: 0.</source>
            <translation>%1 ではスキーマがどの値も許さない: 0。</translation>
        </message>
        <message>
            <source>At %1 the value is %2, not %3: 0.</source>
            <translation>%1 の値が %3 ではなく %2: 0。</translation>
        </message>
        <message>
            <source>At %1 the value %2 is none of %3: 0.</source>
            <translation>%1 の値 %2 が %3 のどれでもない: 0。</translation>
        </message>
        <message>
            <source>At %1 the value %2 is not %3: 0.</source>
            <translation>%1 の値 %2 が %3 ではない: 0。</translation>
        </message>
        <message>
            <source>At %1 the value %2 is below the minimum %3: 0.</source>
            <translation>%1 の値 %2 が最小値 %3 を下回る: 0。</translation>
        </message>
        <message>
            <source>At %1 the value %2 is above the maximum %3: 0.</source>
            <translation>%1 の値 %2 が最大値 %3 を上回る: 0。</translation>
        </message>
        <message>
            <source>At %1 the value %2 is not above %3: 0.</source>
            <translation>%1 の値 %2 が %3 より大きくない: 0。</translation>
        </message>
        <message>
            <source>At %1 the value %2 is not below %3: 0.</source>
            <translation>%1 の値 %2 が %3 より小さくない: 0。</translation>
        </message>
        <message>
            <source>At %1 the string has %2 characters, fewer than %3: 0.</source>
            <translation>%1 の文字列は %2 文字で、%3 文字に満たない: 0。</translation>
        </message>
        <message>
            <source>At %1 the string has %2 characters, more than %3: 0.</source>
            <translation>%1 の文字列は %2 文字で、%3 文字を超える: 0。</translation>
        </message>
        <message>
            <source>At %1 the string does not match the pattern %2: 0.</source>
            <translation>%1 の文字列がパターン %2 に一致しない: 0。</translation>
        </message>
        <message>
            <source>At %1 the array has %2 items, fewer than %3: 0.</source>
            <translation>%1 の配列は %2 要素で、%3 要素に満たない: 0。</translation>
        </message>
        <message>
            <source>At %1 the array has %2 items, more than %3: 0.</source>
            <translation>%1 の配列は %2 要素で、%3 要素を超える: 0。</translation>
        </message>
        <message>
            <source>At %1 the required property "%2" is missing: 0.</source>
            <translation>%1 に必須のプロパティ「%2」がない: 0。</translation>
        </message>
        <message>
            <source>At %1 the property "%2" is not allowed: 0.</source>
            <translation>%1 のプロパティ「%2」は許されていない: 0。</translation>
        </message>
        <message>
            <source>At %1 the pattern %2 backtracked too much and gave up: None.</source>
            <translation>%1 でパターン %2 がバックトラックしすぎて打ち切られた: None。</translation>
        </message>
        <message>
            <source>%1 of %2 fields agree (agree: %3; differ: %4): %5.</source>
            <translation>%2 フィールド中 %1 フィールドが一致（一致: %3、不一致: %4）: %5。</translation>
        </message>
        <message>
            <source>The reply is valid JSON, but %1, not an object: 0.</source>
            <translation>応答は正しい JSON だが、オブジェクトではなく %1: 0。</translation>
        </message>
        <message>
            <source>The gold is not a JSON object: None.</source>
            <translation>正解が JSON オブジェクトではない: None。</translation>
        </message>
        <message>
            <source>The column "%1" does not hold a JSON object: None.</source>
            <translation>列「%1」の値が JSON オブジェクトではない: None。</translation>
        </message>
        <message>
            <source>The reference object has no fields to compare: None.</source>
            <translation>参照のオブジェクトに比較するフィールドがない: None。</translation>
        </message>
        <message>
            <source>Each of %1 occurs once, in that order: 1.</source>
            <translation>%1 がそれぞれ 1 回ずつ、この順に現れる: 1。</translation>
        </message>
        <message>
            <source>The reply is %1, once each and in that order, with nothing else: 1.</source>
            <translation>応答は %1 をこの順に 1 回ずつ並べただけ: 1。</translation>
        </message>
        <message>
            <source>The reply has no &lt;%1&gt;: %2.</source>
            <translation>応答に &lt;%1&gt; がない: %2。</translation>
        </message>
        <message>
            <source>&lt;%1&gt; occurs %2 times: %3.</source>
            <translation>&lt;%1&gt; が %2 回現れる: %3。</translation>
        </message>
        <message>
            <source>&lt;%1&gt; is not closed by &lt;/%1&gt;: %2.</source>
            <translation>&lt;%1&gt; が &lt;/%1&gt; で閉じられていない: %2。</translation>
        </message>
        <message>
            <source>&lt;/%1&gt; occurs %2 times: %3.</source>
            <translation>&lt;/%1&gt; が %2 回現れる: %3。</translation>
        </message>
        <message>
            <source>&lt;/%1&gt; comes before &lt;%1&gt;: %2.</source>
            <translation>&lt;/%1&gt; が &lt;%1&gt; より前にある: %2。</translation>
        </message>
        <message>
            <source>&lt;%1&gt; does not come after &lt;/%2&gt;: %3.</source>
            <translation>&lt;%1&gt; が &lt;/%2&gt; の後にない: %3。</translation>
        </message>
        <message>
            <source>The reply has text outside the tags ("%1"): %2.</source>
            <translation>応答のタグの外にテキストがある（「%1」）: %2。</translation>
        </message>
        <message>
            <source>The reply has %1 words, within %2: 1.</source>
            <translation>応答は %1 語で、%2 の範囲内: 1。</translation>
        </message>
        <message>
            <source>The reply has %1 words, %2 more than the maximum %3: 1 − %2 / %4 = %5.</source>
            <translation>応答は %1 語で、最大 %3 を %2 語超える: 1 − %2 / %4 = %5。</translation>
        </message>
        <message>
            <source>The reply has %1 words, fewer than the minimum %2: %1 / %2 = %3.</source>
            <translation>応答は %1 語で、最小 %2 に満たない: %1 / %2 = %3。</translation>
        </message>
        <message>
            <source>The reply has %1 characters, within %2: 1.</source>
            <translation>応答は %1 文字で、%2 の範囲内: 1。</translation>
        </message>
        <message>
            <source>The reply has %1 characters, %2 more than the maximum %3: 1 − %2 / %4 = %5.</source>
            <translation>応答は %1 文字で、最大 %3 を %2 文字超える: 1 − %2 / %4 = %5。</translation>
        </message>
        <message>
            <source>The reply has %1 characters, fewer than the minimum %2: %1 / %2 = %3.</source>
            <translation>応答は %1 文字で、最小 %2 に満たない: %1 / %2 = %3。</translation>
        </message>
        <message>
            <source>All %1 letters of the reply are in the scripts of %2 (%3): 1.</source>
            <translation>応答の文字 %1 字はすべて %2 の文字体系（%3）: 1。</translation>
        </message>
        <message>
            <source>%1 of the reply&apos;s %2 letters are in the scripts of %3 (%4); most of the others are %5 (%6): %7.</source>
            <translation>応答の文字 %2 字のうち %1 字が %3 の文字体系（%4）。それ以外で最も多いのは %5（%6 字）: %7。</translation>
        </message>
        <message>
            <source>The reply has no letters: 0.</source>
            <translation>応答に文字がない: 0。</translation>
        </message>
        <message>
            <source>%1 of the %2 word %3-grams are distinct; the most repeated, "%4", occurs %5 times: %6.</source>
            <translation>単語 %3-gram %2 個のうち異なるものは %1 個。最も多く繰り返された「%4」は %5 回: %6。</translation>
        </message>
        <message>
            <source>%1 of the %2 character %3-grams are distinct; the most repeated, "%4", occurs %5 times: %6.</source>
            <translation>文字 %3-gram %2 個のうち異なるものは %1 個。最も多く繰り返された「%4」は %5 回: %6。</translation>
        </message>
        <message>
            <source>All %1 word %2-grams are distinct: 1.</source>
            <translation>単語 %2-gram %1 個がすべて異なる: 1。</translation>
        </message>
        <message>
            <source>All %1 character %2-grams are distinct: 1.</source>
            <translation>文字 %2-gram %1 個がすべて異なる: 1。</translation>
        </message>
        <message>
            <source>The reply has %1 words, fewer than %2: 1.</source>
            <translation>応答は %1 語で、%2 語に満たない: 1。</translation>
        </message>
        <message>
            <source>The reply has %1 characters, fewer than %2: 1.</source>
            <translation>応答は %1 文字で、%2 文字に満たない: 1。</translation>
        </message>
        <message>
            <source>1 when the answer equals the reference (the gold or a column) after normalization, else 0.</source>
            <translation>正規化した回答が参照（正解または列）と一致すれば 1、そうでなければ 0。</translation>
        </message>
        <message>
            <source>The share of the required strings found in the completion (or 1 when any is); 0 when a forbidden string occurs.</source>
            <translation>出力に含まれる必須文字列の割合（any ではどれか 1 つあれば 1）。禁止文字列があれば 0。</translation>
        </message>
        <message>
            <source>1 when the regular expression (Python syntax) matches the completion, else 0.</source>
            <translation>正規表現（Python の構文）が出力に一致すれば 1、そうでなければ 0。</translation>
        </message>
        <message>
            <source>1 when the answer&apos;s last number equals the reference&apos;s within the tolerance, else 0.</source>
            <translation>回答の最後の数値が参照の数値と許容誤差内で等しければ 1、そうでなければ 0。</translation>
        </message>
        <message>
            <source>F1 of the answer&apos;s tokens (or characters) against the reference&apos;s, as SQuAD counts them.</source>
            <translation>回答のトークン（または文字）の参照に対する F1（SQuAD の数え方）。</translation>
        </message>
        <message>
            <source>1 when the answer is valid JSON (of the wanted type), else 0.</source>
            <translation>回答が（指定した型の）正しい JSON なら 1、そうでなければ 0。</translation>
        </message>
        <message>
            <source>1 when the answer is JSON that matches the JSON Schema (a documented subset), else 0.</source>
            <translation>回答が JSON Schema（文書化したサブセット）に適合する JSON なら 1、そうでなければ 0。</translation>
        </message>
        <message>
            <source>The share of the reference object&apos;s fields that the answer&apos;s JSON object has equal.</source>
            <translation>参照オブジェクトのフィールドのうち、回答の JSON オブジェクトが等しい値を持つものの割合。</translation>
        </message>
        <message>
            <source>1 when each of the tags (&lt;think&gt;, &lt;answer&gt;, …) occurs exactly once, in order, else 0.</source>
            <translation>各タグ（&lt;think&gt;、&lt;answer&gt; など）がちょうど 1 回ずつ順に現れれば 1、そうでなければ 0。</translation>
        </message>
        <message>
            <source>1 when the completion&apos;s length in words or characters is within [min, max], falling off outside.</source>
            <translation>出力の長さ（語数または文字数）が [min, max] の範囲内なら 1、範囲外では下がる。</translation>
        </message>
        <message>
            <source>The share of the completion&apos;s letters written in the language&apos;s scripts (script identification, not language identification).</source>
            <translation>出力の文字のうち、その言語の文字体系で書かれたものの割合（文字体系による判定で、言語の判定ではない）。</translation>
        </message>
        <message>
            <source>Distinct n-grams / all n-grams of the completion (1: nothing repeats).</source>
            <translation>出力の異なる n-gram の数 / n-gram の総数（1: 繰り返しなし）。</translation>
        </message>
        <message>
            <source>The function gave %1.</source>
            <translation>関数の値は %1 です。</translation>
        </message>
        <message>
            <source>The function gave no value: %1.</source>
            <translation>関数は値を返しませんでした: %1。</translation>
        </message>
        <message>
            <source>Your Python reward function (TRL&apos;s or verl&apos;s signature), run unchanged in a worker process.</source>
            <translation>あなたの Python 報酬関数 (TRL または verl のシグネチャ)。ワーカープロセスでそのまま実行します。</translation>
        </message>
        <message>
            <source>The reward server %1 gave %2.</source>
            <translation>報酬サーバー %1 の値は %2 です。</translation>
        </message>
        <message>
            <source>The reward server %1 gave no value: %2.</source>
            <translation>報酬サーバー %1 は値を返しませんでした: %2。</translation>
        </message>
        <message>
            <source>A remote reward server of OpenRLHF&apos;s kind (OpenRLHF&apos;s serve_rm, rwb serve&apos;s /reward, your own), asked over HTTP with retries, a circuit breaker and a cache.</source>
            <translation>OpenRLHF 形式のリモート報酬サーバー（OpenRLHF の serve_rm、rwb serve の /reward、独自のサーバー）。HTTP で問い合わせ、再試行・サーキットブレーカー・キャッシュを備えます。</translation>
        </message>
    </context>
    <context>
        <name>RolloutCondition</name>
        <message>
            <source>an empty condition in "%1"</source>
            <translation>「%1」に空の条件があります</translation>
        </message>
        <message>
            <source>"%1" is not a comparison like "marker &lt; 0.5"</source>
            <translation>「%1」は「marker &lt; 0.5」のような比較ではありません</translation>
        </message>
        <message>
            <source>unknown operator "%1" in "%2" (use &lt;, &lt;=, &gt;, &gt;=, == or !=)</source>
            <translation>「%2」の演算子「%1」は使えません（&lt;、&lt;=、&gt;、&gt;=、==、!= のいずれか）</translation>
        </message>
        <message>
            <source>a number is missing after "%1"</source>
            <translation>「%1」の後に数値がありません</translation>
        </message>
        <message>
            <source>"%1" is not a number (in "%2")</source>
            <translation>「%1」は数値ではありません（「%2」の中）</translation>
        </message>
        <message>
            <source>unknown component '%1' (known: %2)</source>
            <translation>不明なコンポーネント「%1」（この実行のもの: %2）</translation>
        </message>
    </context>
    <context>
        <name>SampleDetailView</name>
        <message>
            <source>Select a sample to see why each reward component gave what it gave.</source>
            <translation>サンプルを選ぶと、各報酬コンポーネントがその値を与えた理由を表示します。</translation>
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
        <message>
            <source>%1 Asked of the judge in the background, only while its weight is above 0.</source>
            <translation>%1 重みが 0 より大きい間だけ、バックグラウンドで審査モデルに問い合わせます。</translation>
        </message>
        <message>
            <source>a weighted component has no value</source>
            <translation>重みのあるコンポーネントに値がありません</translation>
        </message>
        <message>
            <source>cancelled: re-score to ask the judge</source>
            <translation>キャンセル済み：再採点で審査モデルに問い合わせます</translation>
        </message>
        <message>
            <source>no judge is set up (Judge, in the reward components)</source>
            <translation>審査モデルが設定されていません（報酬コンポーネントの「審査モデル」）</translation>
        </message>
        <message>
            <source>waiting for the judge</source>
            <translation>審査モデルの応答待ち</translation>
        </message>
        <message>
            <source>weight 0: not sent to the judge (give it a weight to score it)</source>
            <translation>重み 0：審査モデルに送っていません（採点するには重みを付けてください）</translation>
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
        <message>
            <source>Open this workspace folder (remembered).</source>
            <translation>このワークスペースのフォルダーを開きます(記憶されます)。</translation>
        </message>
        <message>
            <source>folder</source>
            <translation>フォルダー</translation>
        </message>
        <message>
            <source>Open a run store (SQLite).</source>
            <translation>実行ストア(SQLite)を開きます。</translation>
        </message>
        <message>
            <source>The run of the store to show (default: the last).</source>
            <translation>表示するストアの実行(既定: 最後の実行)。</translation>
        </message>
        <message>
            <source>id</source>
            <translation>ID</translation>
        </message>
        <message>
            <source>Start GRPO training with this config (JSON) and follow it live.</source>
            <translation>この設定(JSON)で GRPO 学習を開始し、その様子をライブで表示します。</translation>
        </message>
        <message>
            <source>The view to show: design, curves, groups, rollouts, failures or judge.</source>
            <translation>表示するビュー: design、curves、groups、rollouts、failures、judge のいずれか。</translation>
        </message>
        <message>
            <source>name</source>
            <translation>名前</translation>
        </message>
        <message>
            <source>The step to show in the group view.</source>
            <translation>グループのビューに表示するステップ。</translation>
        </message>
        <message>
            <source>step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>The rollout to open in the browser and the token view.</source>
            <translation>ブラウザーとトークンのビューで開くロールアウト。</translation>
        </message>
        <message>
            <source>Failure explorer: checkpoint steps A,B to compare.</source>
            <translation>失敗の分析: 比べるチェックポイントのステップ A,B。</translation>
        </message>
        <message>
            <source>a,b</source>
            <translation>a,b</translation>
        </message>
        <message>
            <source>Milliseconds to wait before the screenshot.</source>
            <translation>スクリーンショットの前に待つミリ秒数。</translation>
        </message>
        <message>
            <source>ms</source>
            <translation>ミリ秒</translation>
        </message>
        <message>
            <source>Benchmark: the rollout browser on the last run of this store, print JSON and quit.</source>
            <translation>ベンチマーク: このストアの最後の実行でロールアウトブラウザーを測り、JSON を出力して終了します。</translation>
        </message>
        <message>
            <source>The left dock to show: components, training or runs.</source>
            <translation>表示する左のドック: components、training、runs のいずれか。</translation>
        </message>
        <message>
            <source>The judge decision to show in the judge view.</source>
            <translation>審査ビューに表示する審査判定。</translation>
        </message>
        <message>
            <source>Open this item of the rubric editor for editing (its weight).</source>
            <translation>ルーブリックエディターのこの項目を編集状態で開く（重み）。</translation>
        </message>
        <message>
            <source>Scroll the Designer&apos;s sample table to this component&apos;s column.</source>
            <translation>デザイナーのサンプル表をこのコンポーネントの列までスクロールする。</translation>
        </message>
        <message>
            <source>Open the MCTS tree viewer on a search record (JSON), a folder of them, or a run store (its last MCTS run, followed while it runs).</source>
            <translation>MCTS 木ビューアーで探索の記録 (JSON)、そのフォルダー、または実行ストア（最後の MCTS 実行。実行中なら追跡します）を開きます。</translation>
        </message>
        <message>
            <source>The tree the tree viewer shows (its id in the run store, or its file's place in the folder).</source>
            <translation>木ビューアーに表示する木（実行ストアでの ID、またはフォルダー内のファイルの順番）。</translation>
        </message>
        <message>
            <source>file, folder or store</source>
            <translation>ファイル、フォルダーまたはストア</translation>
        </message>
        <message>
            <source>The iteration the tree viewer shows (default: the last).</source>
            <translation>木ビューアーで表示する反復 (既定: 最後の反復)。</translation>
        </message>
        <message>
            <source>n</source>
            <translation>反復</translation>
        </message>
        <message>
            <source>The node the tree viewer selects and centres.</source>
            <translation>木ビューアーで選択して中央に表示するノード。</translation>
        </message>
        <message>
            <source>Benchmark: the MCTS tree viewer on a synthetic tree of this many nodes, print JSON and quit.</source>
            <translation>ベンチマーク: このノード数の合成の木で MCTS 木ビューアーを測り、JSON を出力して終了します。</translation>
        </message>
        <message>
            <source>Open the annotation view on the preference pairs of a run store.</source>
            <translation>実行ストアの選好ペアを注釈ビューで開きます。</translation>
        </message>
        <message>
            <source>store</source>
            <translation>ストア</translation>
        </message>
        <message>
            <source>The pair set the annotation view opens (default: the first).</source>
            <translation>注釈ビューで開くペアセット(既定: 最初のもの)。</translation>
        </message>
        <message>
            <source>Whose labels the annotation view writes.</source>
            <translation>注釈ビューが書き込むラベルの注釈者。</translation>
        </message>
        <message>
            <source>The pair the annotation view shows.</source>
            <translation>注釈ビューに表示するペア。</translation>
        </message>
        <message>
            <source>A process reward model&apos;s folder: the tree viewer shows its score of every step.</source>
            <translation>プロセス報酬モデルのフォルダ。木ビューアに各ステップのスコアを表示します。</translation>
        </message>
        <message>
            <source>Open File ▸ New task from data on this JSONL file.</source>
            <translation>この JSONL ファイルで「ファイル ▸ データから新しいタスク」を開く。</translation>
        </message>
        <message>
            <source>Failure explorer: the category to list, by key (grader_failure), its first example opened.</source>
            <translation>失敗の分析: 一覧にするカテゴリをキーで指定（grader_failure）し、最初の例を開きます。</translation>
        </message>
        <message>
            <source>key</source>
            <translation>キー</translation>
        </message>
        <message>
            <source>Open workspace</source>
            <translation>ワークスペースを開く</translation>
        </message>
        <message>
            <source>Open run store</source>
            <translation>実行ストアを開く</translation>
        </message>
        <message>
            <source>%1: no such run store</source>
            <translation>%1: そのような実行ストアはありません</translation>
        </message>
        <message>
            <source>Curves: give these metrics (comma-separated) plots of their own, as the metric picker does.</source>
            <translation>曲線: 指定したメトリクス（カンマ区切り）に、メトリクス選択と同じく専用のプロットを追加します。</translation>
        </message>
        <message>
            <source>names</source>
            <translation>名前</translation>
        </message>
        <message>
            <source>Open the guided tour above the views, unless its “Don&apos;t show again” was checked.</source>
            <translation>ビューの上にガイドツアーを開きます（「次回から表示しない」をチェックした場合を除く）。</translation>
        </message>
        <message>
            <source>Open the form of a Jobs menu job (mcts, prm-pairs, prm-train, prm-rft, judge-eval, import).</source>
            <translation>ジョブ メニューのジョブのフォームを開く(mcts、prm-pairs、prm-train、prm-rft、judge-eval、import)。</translation>
        </message>
        <message>
            <source>With --job: set a field of the form (KEY=VALUE; may repeat).</source>
            <translation>--job と共に: フォームの項目を設定する(KEY=VALUE、繰り返し可)。</translation>
        </message>
        <message>
            <source>With --job: start the job at once (what Start does), and follow it in the Jobs dock.</source>
            <translation>--job と共に: ジョブをすぐに開始し(「開始」と同じ)、ジョブ ドックで追う。</translation>
        </message>
        <message>
            <source>The main window&apos;s size in pixels (WIDTHxHEIGHT), e.g. a screen&apos;s whole size for a screenshot.</source>
            <translation>メインウィンドウの大きさ(ピクセル、幅x高さ)。例えばスクリーンショットのために画面全体の大きさにする。</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::CurvePanel</name>
        <message>
            <source>Possible reward hacking: %1 rose %2 → %3 while validation %4 fell %5 → %6 (%7)</source>
            <translation>報酬ハッキングの疑い: %1 が %2 → %3 に上昇し、検証 %4 は %5 → %6 に低下 (%7)</translation>
        </message>
        <message>
            <source>Validation (headline metric)</source>
            <translation>検証（主指標）</translation>
        </message>
        <message>
            <source>headline metric</source>
            <translation>主指標</translation>
        </message>
        <message>
            <source>Smoothing</source>
            <translation>平滑化</translation>
        </message>
        <message>
            <source>Alert thresholds…</source>
            <translation>アラートのしきい値…</translation>
        </message>
        <message>
            <source>When the reward-hacking alert fires: the window, the rise of a reward component, the fall of validation F1 and the collapse thresholds.</source>
            <translation>報酬ハッキングのアラートを出す条件: ウィンドウ、報酬コンポーネントの上昇、検証 F1 の低下、崩壊のしきい値。</translation>
        </message>
        <message>
            <source>Show rollouts</source>
            <translation>ロールアウトを表示</translation>
        </message>
        <message>
            <source>Open the rollouts of the alert&apos;s steps</source>
            <translation>アラートのステップのロールアウトを開きます</translation>
        </message>
        <message>
            <source>Compare checkpoints</source>
            <translation>チェックポイントを比較</translation>
        </message>
        <message>
            <source>Compare, in the failure explorer, the checkpoint evaluated at or before the alert&apos;s start with the latest one</source>
            <translation>アラートの開始時点またはそれ以前に評価したチェックポイントと最新のチェックポイントを、失敗の分析で比較します</translation>
        </message>
        <message>
            <source>Hide until the next alert</source>
            <translation>次のアラートまで隠す</translation>
        </message>
        <message>
            <source>step %1</source>
            <translation>ステップ %1</translation>
        </message>
        <message>
            <source>steps %1–%2</source>
            <translation>ステップ %1–%2</translation>
        </message>
        <message>
            <source>Possible reward hacking: %1 rose %2 → %3 while validation F1 fell %4 → %5 (%6)</source>
            <translation>報酬ハッキングの疑い: %1 が %2 → %3 に上昇し、検証 F1 は %4 → %5 に低下 (%6)</translation>
        </message>
        <message>
            <source>Possible reward hacking: %1 rose %2 → %3 while %4 fell %5 → %6 (%7; no validation metrics)</source>
            <translation>報酬ハッキングの疑い: %1 が %2 → %3 に上昇し、%4 は %5 → %6 に低下 (%7、検証指標なし)</translation>
        </message>
        <message>
            <source>%1 → %2</source>
            <translation>%1 → %2</translation>
        </message>
        <message>
            <source>Completions collapsing: %1 distinct answers per group (threshold ≤ %2; %3)</source>
            <translation>出力が崩壊しつつあります: グループあたりの異なる回答は %1 個 (しきい値 ≤ %2、%3)</translation>
        </message>
        <message>
            <source>Completions collapsing: the most common answer is a share %1 of the completions (threshold &gt; %2; %3)</source>
            <translation>出力が崩壊しつつあります: 最も多い回答が出力の割合 %1 を占めます (しきい値 &gt; %2、%3)</translation>
        </message>
        <message numerus="yes">
            <source>(%n other alert(s): see the tooltip)</source>
            <translation>
                <numerusform>(ほかのアラート %n 件: ツールチップを参照)</numerusform>
            </translation>
        </message>
        <message>
            <source>Reward-hacking alert</source>
            <translation>報酬ハッキングのアラート</translation>
        </message>
        <message>
            <source> steps</source>
            <translation> ステップ</translation>
        </message>
        <message>
            <source>Mean over the window&apos;s second half minus the mean over its first half</source>
            <translation>ウィンドウの後半の平均から前半の平均を引いた値</translation>
        </message>
        <message>
            <source>Window:</source>
            <translation>ウィンドウ:</translation>
        </message>
        <message>
            <source>A component rises by more than:</source>
            <translation>コンポーネントの上昇がこれを超える:</translation>
        </message>
        <message>
            <source>Validation F1 falls by more than:</source>
            <translation>検証 F1 の低下がこれを超える:</translation>
        </message>
        <message>
            <source>Without F1, another component falls by more than:</source>
            <translation>F1 がないとき、別のコンポーネントの低下がこれを超える:</translation>
        </message>
        <message>
            <source>Collapse: distinct answers per group at most:</source>
            <translation>崩壊: グループあたりの異なる回答がこれ以下:</translation>
        </message>
        <message>
            <source>Collapse: share of the most common answer above:</source>
            <translation>崩壊: 最も多い回答の割合がこれを超える:</translation>
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
            <source>weights %1</source>
            <translation>重み %1</translation>
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
            <source>Metrics</source>
            <translation>メトリクス</translation>
        </message>
        <message>
            <source>Show or hide the list of every metric in the store; check one to give it a plot</source>
            <translation>ストアにあるすべてのメトリクスの一覧を表示／非表示にします。チェックするとそのメトリクスのプロットを追加します</translation>
        </message>
        <message>
            <source>Check a metric to plot it:</source>
            <translation>チェックしたメトリクスをプロットします:</translation>
        </message>
        <message>
            <source>Filter metrics</source>
            <translation>メトリクスを絞り込む</translation>
        </message>
        <message>
            <source>Also on the plot “%1”</source>
            <translation>「%1」のプロットにも表示されています</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::FailureCategoryModel</name>
        <message>
            <source>%1 of %2 examples evaluated at both checkpoints</source>
            <translation>両方のチェックポイントで評価した %2 件中 %1 件</translation>
        </message>
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
        <message numerus="yes">
            <source>%1 — %2: %n example(s)</source>
            <translation>
                <numerusform>%1 — %2: %n 件の例</numerusform>
            </translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: &lt;span style="color:#1e8449"&gt;fixed %3&lt;/span&gt; (wrong at A, right at B), &lt;span style="color:#c0392b"&gt;broke %4&lt;/span&gt; (right at A, wrong at B), of %5 examples in both.</source>
            <translation>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: &lt;span style="color:#1e8449"&gt;改善 %3&lt;/span&gt;（A で誤り、B で正解）、&lt;span style="color:#c0392b"&gt;悪化 %4&lt;/span&gt;（A で正解、B で誤り）。両方にある例 %5 件中。</translation>
        </message>
        <message numerus="yes">
            <source>%1: %n example(s)</source>
            <translation>
                <numerusform>%1: %n 件の例</numerusform>
            </translation>
        </message>
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
        <message>
            <source>&lt;b&gt;Grader error:&lt;/b&gt; %1</source>
            <translation>&lt;b&gt;採点器のエラー:&lt;/b&gt; %1</translation>
        </message>
        <message>
            <source>run %1 · step %2 (evaluated here)</source>
            <translation>実行 %1 · ステップ %2（ここで評価）</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::FailureTransitionModel</name>
        <message numerus="yes">
            <source>%n example(s): %1 at A, %2 at B</source>
            <translation>
                <numerusform>例 %n 件: A で %1、B で %2</numerusform>
            </translation>
        </message>
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
        <message>
            <source>Over the %1 samples with a reward; None rewards are left out, as in training.</source>
            <translation>報酬のある %1 件のサンプルについての値です。学習と同じく、なし（None）の報酬は除いています。</translation>
        </message>
        <message>
            <source>all None</source>
            <translation>すべてなし</translation>
        </message>
        <message>
            <source>one reward</source>
            <translation>報酬が 1 件</translation>
        </message>
        <message>
            <source>Fewer than two samples of this group have a reward (the others are None): its advantages are 0 and it teaches nothing.</source>
            <translation>このグループで報酬のあるサンプルが 2 件未満です（ほかはなし）。アドバンテージは 0 で、何も学習しません。</translation>
        </message>
        <message>
            <source>reward None (a judge gave no verdict): left out of the group&apos;s mean and std, advantage %1</source>
            <translation>報酬なし（審査モデルが判定を返さなかった）：グループの平均と標準偏差から除外、アドバンテージ %1</translation>
        </message>
        <message>
            <source>Prompt %1</source>
            <translation>プロンプト %1</translation>
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
        <message>
            <source>1 None reward (a judge gave no verdict) left out of the means.</source>
            <translation>報酬なし（審査モデルが判定を返さなかった）の 1 件を平均から除外しています。</translation>
        </message>
        <message>
            <source>%1 None rewards (a judge gave no verdict) left out of the means.</source>
            <translation>報酬なし（審査モデルが判定を返さなかった）の %1 件を平均から除外しています。</translation>
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
        <message>
            <source>%1 could not be started: %2</source>
            <translation>%1 を起動できませんでした: %2</translation>
        </message>
        <message>
            <source>%1 crashed</source>
            <translation>%1 が異常終了しました</translation>
        </message>
        <message>
            <source>%1 ended with exit code %2</source>
            <translation>%1 は終了コード %2 で終わりました</translation>
        </message>
        <message>
            <source>the rwb program was not found beside the workbench or on PATH (set RWB_PROGRAM)</source>
            <translation>rwb プログラムがワークベンチの隣にも PATH 上にも見つかりません(RWB_PROGRAM を設定してください)</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RolloutBrowser</name>
        <message>
            <source>Steps</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>any</source>
            <translation>すべて</translation>
        </message>
        <message>
            <source>First step shown (any: from the start)</source>
            <translation>表示する最初のステップ（すべて: 最初から）</translation>
        </message>
        <message>
            <source>Last step shown (any: to the end)</source>
            <translation>表示する最後のステップ（すべて: 最後まで）</translation>
        </message>
        <message>
            <source>Reward</source>
            <translation>報酬</translation>
        </message>
        <message>
            <source>min</source>
            <translation>最小</translation>
        </message>
        <message>
            <source>max</source>
            <translation>最大</translation>
        </message>
        <message>
            <source>Truncated</source>
            <translation>打ち切り</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>はい</translation>
        </message>
        <message>
            <source>no</source>
            <translation>いいえ</translation>
        </message>
        <message>
            <source>Components</source>
            <translation>コンポーネント</translation>
        </message>
        <message>
            <source>e.g. marker &lt; 0.5 and partial &gt;= 0.8</source>
            <translation>例: marker &lt; 0.5 and partial &gt;= 0.8</translation>
        </message>
        <message>
            <source>Conditions on reward components, joined by "and": name, one of &lt; &lt;= &gt; &gt;= == !=, a number.</source>
            <translation>報酬コンポーネントの条件（"and" でつなぐ）: 名前、&lt; &lt;= &gt; &gt;= == != のいずれか、数値。</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>検索</translation>
        </message>
        <message>
            <source>full-text search (SQLite FTS5, 3+ characters)</source>
            <translation>全文検索（SQLite FTS5、3 文字以上）</translation>
        </message>
        <message>
            <source>in completions</source>
            <translation>出力を検索</translation>
        </message>
        <message>
            <source>in prompts</source>
            <translation>プロンプトを検索</translation>
        </message>
        <message>
            <source>← Previous</source>
            <translation>← 前へ</translation>
        </message>
        <message>
            <source>Next →</source>
            <translation>次へ →</translation>
        </message>
        <message>
            <source>Previous rollout of the filtered table (←)</source>
            <translation>絞り込んだ表の前のロールアウト（←）</translation>
        </message>
        <message>
            <source>Next rollout of the filtered table (→)</source>
            <translation>絞り込んだ表の次のロールアウト（→）</translation>
        </message>
        <message>
            <source>Cannot show the rollouts of run %1 in %2: %3</source>
            <translation>%2 の実行 %1 のロールアウトを表示できません: %3</translation>
        </message>
        <message>
            <source>Conditions on reward components, joined by "and": name, one of &lt; &lt;= &gt; &gt;= == !=, a number. Components of this run: %1</source>
            <translation>報酬コンポーネントの条件（"and" でつなぐ）: 名前、&lt; &lt;= &gt; &gt;= == != のいずれか、数値。この実行のコンポーネント: %1</translation>
        </message>
        <message>
            <source>The %1 "%2" is not a number.</source>
            <translation>%1「%2」は数値ではありません。</translation>
        </message>
        <message>
            <source>minimum reward</source>
            <translation>最小報酬</translation>
        </message>
        <message>
            <source>maximum reward</source>
            <translation>最大報酬</translation>
        </message>
        <message>
            <source>Components: %1</source>
            <translation>コンポーネント: %1</translation>
        </message>
        <message>
            <source>Search: %1</source>
            <translation>検索: %1</translation>
        </message>
        <message>
            <source>1 rollout shown</source>
            <translation>1 件のロールアウトを表示</translation>
        </message>
        <message>
            <source>%1 rollouts shown</source>
            <translation>%1 件のロールアウトを表示</translation>
        </message>
        <message>
            <source>more…</source>
            <translation>さらに読み込む…</translation>
        </message>
        <message>
            <source>Rollout %1: %2</source>
            <translation>ロールアウト %1: %2</translation>
        </message>
        <message>
            <source>the filtered rollouts</source>
            <translation>フィルタ後のロールアウト</translation>
        </message>
        <message>
            <source>Select a rollout first: its group or step is re-scored.</source>
            <translation>先にロールアウトを選んでください。そのグループかステップを再採点します。</translation>
        </message>
        <message>
            <source>step %1, group %2</source>
            <translation>ステップ %1、グループ %2</translation>
        </message>
        <message>
            <source>step %1</source>
            <translation>ステップ %1</translation>
        </message>
        <message>
            <source>this run</source>
            <translation>この実行</translation>
        </message>
        <message>
            <source>all runs of the store</source>
            <translation>ストアのすべての実行</translation>
        </message>
        <message>
            <source>Where the filter looks: the run shown, or every run of its store (the first %1 rollouts found; double-click one of another run to open that run)</source>
            <translation>絞り込む範囲: 表示中の実行、またはそのストアのすべての実行（見つかった最初の %1 件のロールアウト。別の実行のロールアウトをダブルクリックするとその実行を開きます）</translation>
        </message>
        <message>
            <source>first %1 rollouts shown (more match: narrow the filter)</source>
            <translation>最初の %1 件のロールアウトを表示（ほかにも一致: 条件を絞り込んでください）</translation>
        </message>
        <message>
            <source>1 rollout of every run shown</source>
            <translation>すべての実行から 1 件のロールアウトを表示</translation>
        </message>
        <message>
            <source>%1 rollouts of every run shown</source>
            <translation>すべての実行から %1 件のロールアウトを表示</translation>
        </message>
        <message>
            <source>the filtered rollouts of this run</source>
            <translation>この実行のフィルタ後のロールアウト</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RolloutDetailView</name>
        <message>
            <source>This build has no task &quot;%1&quot;, so the rollout is shown as stored.</source>
            <translation>このビルドにはタスク「%1」がないため、ロールアウトを保存されたまま表示します。</translation>
        </message>
        <message>
            <source>The prompt&apos;s recorded input could not be read: %1</source>
            <translation>プロンプトに記録された入力を読めませんでした: %1</translation>
        </message>
        <message>
            <source>The run recorded no reward config at or before step %1.</source>
            <translation>この実行にはステップ %1 以前の報酬設定が記録されていません。</translation>
        </message>
        <message>
            <source>The prompt has no recorded input, so rewards that look at it are explained without it.</source>
            <translation>プロンプトに入力が記録されていないため、入力を参照する報酬は入力なしで説明しています。</translation>
        </message>
        <message>
            <source>The reward config could not be rebuilt to explain the values: %1</source>
            <translation>値を説明するための報酬設定を再構築できませんでした: %1</translation>
        </message>
        <message>
            <source>Select a rollout to see its answer against the gold and why each reward component gave what it gave.</source>
            <translation>ロールアウトを選ぶと、回答と正解の比較と、各報酬コンポーネントがその値を与えた理由が表示されます。</translation>
        </message>
        <message>
            <source>Run %1 (#%2) · step %3 · group %4 · sample %5</source>
            <translation>実行 %1 (#%2) · ステップ %3 · グループ %4 · サンプル %5</translation>
        </message>
        <message>
            <source>Reward (weighted total)</source>
            <translation>報酬（重み付き合計）</translation>
        </message>
        <message>
            <source>Advantage</source>
            <translation>アドバンテージ</translation>
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
            <source>yes</source>
            <translation>はい</translation>
        </message>
        <message>
            <source>no</source>
            <translation>いいえ</translation>
        </message>
        <message>
            <source>Mean log-prob per token:</source>
            <translation>トークンあたりの平均対数確率:</translation>
        </message>
        <message>
            <source>sampling %1 · updated %2 · reference %3 (%4 token ids)</source>
            <translation>サンプリング時 %1 · 更新後 %2 · 参照 %3（トークン ID %4 個）</translation>
        </message>
        <message>
            <source>Reward components (config from step %1)</source>
            <translation>報酬コンポーネント（ステップ %1 からの設定）</translation>
        </message>
        <message>
            <source>Reward components</source>
            <translation>報酬コンポーネント</translation>
        </message>
        <message>
            <source>(explained now as %1; the run stored %2)</source>
            <translation>（いま計算し直すと %1、実行時の記録は %2）</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>プロンプト</translation>
        </message>
        <message>
            <source>Show less</source>
            <translation>折りたたむ</translation>
        </message>
        <message>
            <source>Show all %1 characters</source>
            <translation>全 %1 文字を表示</translation>
        </message>
        <message>
            <source>Judge calls (%1): the prompts, the replies and the verdicts</source>
            <translation>審査の呼び出し（%1 件）：プロンプト、応答、判定</translation>
        </message>
        <message>
            <source>Process rewards (dual-granularity GRPO)</source>
            <translation>プロセス報酬(二重粒度 GRPO)</translation>
        </message>
        <message>
            <source>Each step&apos;s PRM score R, its step reward (σ(R) plus the format bonus), its process advantage A_proc within the group at that step, and its tokens&apos; advantage A_out + β·A_proc (A_out %1, β %2).</source>
            <translation>各ステップの PRM スコア R、ステップ報酬(σ(R) と形式ボーナスの和)、そのステップ位置でのグループ内のプロセスアドバンテージ A_proc、そしてトークンのアドバンテージ A_out + β·A_proc(A_out %1、β %2)。</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>PRM score R</source>
            <translation>PRM スコア R</translation>
        </message>
        <message>
            <source>Step reward</source>
            <translation>ステップ報酬</translation>
        </message>
        <message>
            <source>A_proc</source>
            <translation>A_proc</translation>
        </message>
        <message>
            <source>Token advantage</source>
            <translation>トークンのアドバンテージ</translation>
        </message>
        <message>
            <source>Values the reward functions logged</source>
            <translation>報酬関数が記録した値</translation>
        </message>
        <message>
            <source>Component</source>
            <translation>コンポーネント</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名前</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>値</translation>
        </message>
        <message>
            <source>Why %1 gave no value</source>
            <translation>%1 が値を返さなかった理由</translation>
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
        <message>
            <source>None: a judge gave no verdict, so GRPO left this rollout out of its group (advantage 0).</source>
            <translation>なし：審査モデルが判定を返さなかったため、GRPO はこのロールアウトをグループから除きました（アドバンテージ 0）。</translation>
        </message>
        <message>
            <source>Run %1 of the store</source>
            <translation>ストアの実行 %1</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>実行</translation>
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
        <message>
            <source>Tags</source>
            <translation>タグ</translation>
        </message>
        <message>
            <source>no run store is open</source>
            <translation>実行ストアが開かれていません</translation>
        </message>
        <message>
            <source>a run&apos;s name cannot be blank</source>
            <translation>実行の名前は空にできません</translation>
        </message>
        <message>
            <source>Run %1 was not renamed: %2</source>
            <translation>実行 %1 の名前を変更できませんでした: %2</translation>
        </message>
        <message>
            <source>The tags of run %1 were not changed: %2</source>
            <translation>実行 %1 のタグを変更できませんでした: %2</translation>
        </message>
        <message>
            <source>Run %1 was not deleted: %2</source>
            <translation>実行 %1 を削除できませんでした: %2</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RunSession</name>
        <message>
            <source>%1: cannot show run %2: %3</source>
            <translation>%1: 実行 %2 を表示できません: %3</translation>
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
            <source>Retrieval index</source>
            <translation>検索インデックス</translation>
        </message>
        <message>
            <source>A multi-step task&apos;s index (rwb retrieve index): the model retrieves from it at every &lt;/subquery&gt;; ignored by other tasks</source>
            <translation>多段タスクのインデックス(rwb retrieve index): モデルは &lt;/subquery&gt; のたびにここから検索する。他のタスクでは使わない</translation>
        </message>
        <message>
            <source>Validation retrieval index</source>
            <translation>検証用検索インデックス</translation>
        </message>
        <message>
            <source>Optional: the index the validation questions are answered from, when they are about another knowledge base</source>
            <translation>任意: 検証用の質問が別の知識ベースについてのものであるとき、その回答に使うインデックス</translation>
        </message>
        <message>
            <source>Passages per retrieval</source>
            <translation>検索あたりのパッセージ数</translation>
        </message>
        <message>
            <source>A multi-step task&apos;s retriever returns this many passages</source>
            <translation>多段タスクの検索器が返すパッセージの数</translation>
        </message>
        <message>
            <source>Max retrievals</source>
            <translation>最大検索回数</translation>
        </message>
        <message>
            <source>Retrievals per completion at most; the next one ends it, truncated</source>
            <translation>出力あたりの検索回数の上限。次の検索で出力は打ち切られる</translation>
        </message>
        <message>
            <source>Max tokens per step</source>
            <translation>ステップあたりの最大トークン数</translation>
        </message>
        <message>
            <source>The model&apos;s tokens in one stretch at most (to the first retrieval, between two, after the last); more end the completion (0: no limit)</source>
            <translation>モデルが続けて書くトークン数の上限(最初の検索まで、検索と検索の間、最後の検索の後)。超えると出力は終わる(0: 上限なし)</translation>
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
            <source>rsLoRA</source>
            <translation>rsLoRA</translation>
        </message>
        <message>
            <source>Rank-stabilized LoRA: the adapters&apos; output scaled by α / √r instead of α / r</source>
            <translation>ランク安定化 LoRA: アダプタの出力を α / r ではなく α / √r で拡大縮小</translation>
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
            <source>Rows per forward / backward (memory, not maths); 0: 8 in fp32, 16 in bf16</source>
            <translation>順伝播 / 逆伝播あたりの行数（メモリのみに影響し、計算結果は変わりません）。0: fp32 では 8、bf16 では 16</translation>
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
            <source>KL ratio-weighted</source>
            <translation>KL を比で重み付け</translation>
        </message>
        <message>
            <source>The KL term times the importance ratio: the unbiased KL gradient (TRL&apos;s default)</source>
            <translation>KL 項に重要度比を掛ける: 偏りのない KL 勾配 (TRL の既定)</translation>
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
            <source>float32, bfloat16, or auto (the model's; bfloat16 weights compute in float32 where bf16 is slow)</source>
            <translation>float32、bfloat16、または auto（モデルのもの。bf16 が遅いマシンでは bfloat16 の重みを float32 で計算）</translation>
        </message>
        <message>
            <source>Precision</source>
            <translation>精度</translation>
        </message>
        <message>
            <source>auto: bf16 autocast where this machine runs bf16 fast (AMX, or AVX512-BF16 when timed faster; a GPU), else fp32; or bf16 / fp32</source>
            <translation>auto: このマシンで bf16 が速い場合（AMX、計測で速かった AVX512-BF16、GPU）は学習時の順伝播を bf16 で自動キャストし、それ以外は fp32。bf16 / fp32 の指定も可</translation>
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
        <message>
            <source>Judge (for the reward config&apos;s judge rewards)</source>
            <translation>審査モデル（報酬設定の審査報酬用）</translation>
        </message>
        <message>
            <source>Edit in the Designer…</source>
            <translation>デザイナーで編集…</translation>
        </message>
        <message>
            <source>The judge is set up in the Reward Designer&apos;s judge settings</source>
            <translation>審査モデルは報酬デザイナーの審査設定で設定します</translation>
        </message>
        <message>
            <source>the Reward Designer&apos;s (not saved to a file)</source>
            <translation>報酬デザイナーの設定（ファイルには保存されていません）</translation>
        </message>
        <message>
            <source>%1, as in the Reward Designer</source>
            <translation>%1（報酬デザイナーの設定）</translation>
        </message>
        <message>
            <source>written in the config (no file)</source>
            <translation>設定内に記述（ファイルなし）</translation>
        </message>
        <message>
            <source>%1, written in the config (no file)</source>
            <translation>%1（設定内に記述、ファイルなし）</translation>
        </message>
        <message>
            <source>judge: the reward config has a judge reward (coverage, rubric_explicit, …): set up its judge in the Reward Designer</source>
            <translation>judge: 報酬設定に審査報酬（coverage、rubric_explicit など）があります。報酬デザイナーで審査モデルを設定してください</translation>
        </message>
        <message>
            <source>No judge is set up.</source>
            <translation>審査モデルが設定されていません。</translation>
        </message>
        <message>
            <source>The local model %1, in this process.</source>
            <translation>ローカルモデル %1（このプロセス内）。</translation>
        </message>
        <message>
            <source>%1 at %2, %3 calls at a time.</source>
            <translation>%2 の %1、同時に %3 件の呼び出し。</translation>
        </message>
        <message>
            <source>The server&apos;s model</source>
            <translation>サーバーのモデル</translation>
        </message>
        <message>
            <source>No reward (grader failed)</source>
            <translation>報酬なし（採点の失敗）</translation>
        </message>
        <message>
            <source>A completion whose grader failed (judge error, Python or remote reward error, timeout): skip (left out of its group, advantage 0), zero (scored 0) or stop (stop the run when too many fail)</source>
            <translation>採点器が失敗した生成（ジャッジのエラー、Python またはリモート報酬のエラー、タイムアウト）の扱い: skip（グループから除外し、アドバンテージ 0）、zero（0 点とする）、stop（失敗が多すぎると実行を止める）</translation>
        </message>
        <message>
            <source>Stop above failed share</source>
            <translation>停止する失敗の割合</translation>
        </message>
        <message>
            <source>With stop: the run stops when more than this share of a step&apos;s completions has no reward (0: any)</source>
            <translation>stop のとき: 1 ステップの生成のうち報酬のないものがこの割合を超えると実行を止めます（0: 1 件でも）</translation>
        </message>
        <message>
            <source>The quick demo&apos;s GRPO values for the tiny model (scripts/demo.sh --quick), a run of a few minutes on 2 cores: G 8, 16 prompts, 24 tokens, temperature 0.8, LoRA r 16, learning rate 2e-3 on a cosine schedule, 60 steps, evaluation of 64 e-mails and a checkpoint every 20. The full demo: 600 steps, 500 e-mails every 100. Train on e-mails the SFT never saw: on its own, the model recalls memorised answers and the training reward cannot rise</source>
            <translation>小型モデル用のクイックデモの GRPO 設定（scripts/demo.sh --quick）、2 コアで数分の実行: G 8、プロンプト 16、24 トークン、温度 0.8、LoRA r 16、学習率 2e-3（コサインスケジュール）、60 ステップ、20 ステップごとに 64 通で評価しチェックポイントを保存。フルのデモは 600 ステップ、100 ステップごとに 500 通。SFT で使っていないメールで学習してください。SFT のメールでは、モデルが暗記した答えを思い出すため、学習報酬が上がりません</translation>
        </message>
        <message>
            <source>%1: not a process reward model folder (no prm.json; rwb prm train writes one)</source>
            <translation>%1: プロセス報酬モデルのフォルダではありません(prm.json がありません。rwb prm train が書きます)</translation>
        </message>
        <message>
            <source>Data-parallel processes on this machine (rwb grpo --nproc): each samples, scores and back-propagates its share of every step. More than 1 runs the training as rwb grpo in the background; the Designer&apos;s weights, Pause and Stop still reach it (through --control)</source>
            <translation>このマシンでのデータ並列プロセス数(rwb grpo --nproc)。各プロセスが毎ステップの担当分をサンプリング・採点・逆伝播します。2 以上ではバックグラウンドの rwb grpo として学習し、デザイナーの重み、一時停止、停止は --control を通じて届きます</translation>
        </message>
        <message>
            <source>Optional: a PRM folder (rwb prm train) for dual-granularity advantages: each step&apos;s advantage adds β times its standardised step reward (the fourth paper, eq. 8); a task whose completions are steps</source>
            <translation>任意: 二粒度アドバンテージのための PRM フォルダ(rwb prm train)。各ステップのアドバンテージに標準化したステップ報酬の β 倍を加えます(4 本目の論文の式 8)。出力がステップからなるタスク向け</translation>
        </message>
        <message>
            <source>Process reward model</source>
            <translation>プロセス報酬モデル</translation>
        </message>
        <message>
            <source>Processes</source>
            <translation>プロセス数</translation>
        </message>
        <message>
            <source>Step format bonus</source>
            <translation>ステップ形式ボーナス</translation>
        </message>
        <message>
            <source>Step reward weight β</source>
            <translation>ステップ報酬の重み β</translation>
        </message>
        <message>
            <source>Step score</source>
            <translation>ステップスコア</translation>
        </message>
        <message>
            <source>sigmoid: σ(R), a probability; raw: the PRM&apos;s score R</source>
            <translation>sigmoid: σ(R)(確率)、raw: PRM のスコア R そのもの</translation>
        </message>
        <message>
            <source>β of eq. 8: how much the PRM&apos;s step rewards move each step&apos;s advantage (the paper: 0.3); used only with a process reward model</source>
            <translation>式 8 の β: PRM のステップ報酬が各ステップのアドバンテージをどれだけ動かすか(論文: 0.3)。プロセス報酬モデルがあるときだけ使われます</translation>
        </message>
        <message>
            <source>ν1 of eq. 5: added to a step&apos;s reward when it is well formed; used only with a process reward model</source>
            <translation>式 5 の ν1: 形式の正しいステップの報酬に加えます。プロセス報酬モデルがあるときだけ使われます</translation>
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
        <message>
            <source>advantage %1: the outcome&apos;s %2 and %3 from its step&apos;s process reward (β·A_proc)</source>
            <translation>アドバンテージ %1: 結果の %2 と、そのステップのプロセス報酬による %3 (β·A_proc)</translation>
        </message>
        <message>
            <source>Advantage of each token: the outcome&apos;s plus β × its step&apos;s process advantage (ProRAG&apos;s dual-granularity GRPO), so it changes from step to step.</source>
            <translation>各トークンのアドバンテージ: 結果のアドバンテージに、そのステップのプロセスアドバンテージの β 倍を加えたもの(ProRAG の二重粒度 GRPO)。ステップごとに変わります。</translation>
        </message>
        <message>
            <source>Run %1 of %2 names no "model" folder in its config, so its tokens show as their ids (an import records one with rwb import --tokenizer DIR).</source>
            <translation>%2 のラン %1 は設定に "model" フォルダーがないため、トークンを ID で表示します（取り込み時に rwb import --tokenizer DIR で指定できます）。</translation>
        </message>
        <message>
            <source>The model folder %1 of run %2 does not exist, so its tokens show as their ids.</source>
            <translation>ラン %2 のモデルフォルダー %1 が存在しないため、トークンを ID で表示します。</translation>
        </message>
        <message>
            <source>Cannot read the tokenizer of model folder %1 (%2), so the tokens show as their ids.</source>
            <translation>モデルフォルダー %1 のトークナイザーを読み込めない（%2）ため、トークンを ID で表示します。</translation>
        </message>
        <message>
            <source>No token ids are stored for this rollout (the trainer&apos;s dump had none), so there are no tokens to show.</source>
            <translation>このロールアウトにはトークン ID が保存されていない（トレーナーの書き出しになかった）ため、表示するトークンがありません。</translation>
        </message>
    </context>
<context>
        <name>TaskPresenter</name>
        <message numerus="yes">
            <source>%n duplicate citation(s).</source>
            <translation>
                <numerusform>重複した引用が %n 件。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n &lt;law_code&gt; element(s) whose content is not an integer.</source>
            <translation>
                <numerusform>内容が整数でない &lt;law_code&gt; 要素が %n 件。</numerusform>
            </translation>
        </message>
        <message>
            <source>in both</source>
            <translation>両方にある</translation>
        </message>
        <message>
            <source>only in the answer</source>
            <translation>回答にだけある</translation>
        </message>
        <message>
            <source>missing from the answer</source>
            <translation>回答に欠けている</translation>
        </message>
        <message>
            <source>Answer against gold</source>
            <translation>回答と正解</translation>
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
            <source>Normalized answer</source>
            <translation>正規化した回答</translation>
        </message>
        <message>
            <source>Normalized gold</source>
            <translation>正規化した正解</translation>
        </message>
        <message>
            <source>Answer without markers</source>
            <translation>法人格を除いた回答</translation>
        </message>
        <message>
            <source>Gold without markers</source>
            <translation>法人格を除いた正解</translation>
        </message>
        <message>
            <source>Markers removed (answer / gold)</source>
            <translation>除いた法人格（回答 / 正解）</translation>
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
            <source>Removed from the answer</source>
            <translation>回答から除いた法人格</translation>
        </message>
        <message>
            <source>Removed from the gold</source>
            <translation>正解から除いた法人格</translation>
        </message>
        <message>
            <source>Romanized candidates against the domain &quot;%1&quot;</source>
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
            <source>Citations against gold</source>
            <translation>引用と正解の比較</translation>
        </message>
        <message>
            <source>cited and gold</source>
            <translation>引用あり・正解</translation>
        </message>
        <message>
            <source>cited, not gold</source>
            <translation>引用あり・正解でない</translation>
        </message>
        <message>
            <source>gold, not cited</source>
            <translation>正解・引用なし</translation>
        </message>
        <message>
            <source>Law code</source>
            <translation>法令コード</translation>
        </message>
        <message>
            <source>Section</source>
            <translation>条文</translation>
        </message>
        <message>
            <source>Cited</source>
            <translation>引用</translation>
        </message>
        <message>
            <source>In the prompt</source>
            <translation>プロンプト内</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>はい</translation>
        </message>
        <message>
            <source>no</source>
            <translation>いいえ</translation>
        </message>
        <message>
            <source>not retrieved: the model could not see it</source>
            <translation>検索されず: モデルには見えなかった</translation>
        </message>
        <message>
            <source>no sections in the prompt</source>
            <translation>プロンプトに条文なし</translation>
        </message>
        <message>
            <source>not in the prompt: a hallucinated code</source>
            <translation>プロンプトにない: 捏造されたコード</translation>
        </message>
        <message>
            <source>The format breaks: %1.</source>
            <translation>形式が崩れています: %1。</translation>
        </message>
        <message>
            <source>The answer&apos;s facts against the reference</source>
            <translation>回答の事実と参照回答の比較</translation>
        </message>
        <message>
            <source>stated</source>
            <translation>記載あり</translation>
        </message>
        <message>
            <source>missing</source>
            <translation>欠落</translation>
        </message>
        <message>
            <source>contradicted</source>
            <translation>矛盾</translation>
        </message>
        <message>
            <source>Slot</source>
            <translation>スロット</translation>
        </message>
        <message>
            <source>Reference value</source>
            <translation>参照値</translation>
        </message>
        <message>
            <source>In the answer</source>
            <translation>回答内</translation>
        </message>
        <message>
            <source>not stated</source>
            <translation>記載なし</translation>
        </message>
        <message>
            <source>Coverage %1 (%2 of %3 facts stated) · consistency %4</source>
            <translation>網羅性 %1（%3 件中 %2 件の事実を記載）· 一貫性 %4</translation>
        </message>
        <message>
            <source>Reference answer</source>
            <translation>参照回答</translation>
        </message>
        <message>
            <source>Question</source>
            <translation>質問</translation>
        </message>
        <message>
            <source>Sections in the prompt (retriever&apos;s order)</source>
            <translation>プロンプト内の条文（検索順）</translation>
        </message>
        <message>
            <source>none: the prompt has the question only</source>
            <translation>なし: プロンプトは質問のみ</translation>
        </message>
        <message>
            <source>cited</source>
            <translation>引用</translation>
        </message>
        <message>
            <source>Input (as stored)</source>
            <translation>入力（保存されたまま）</translation>
        </message>
        <message>
            <source>Right</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>形式</translation>
        </message>
        <message>
            <source>Hallucinated citation</source>
            <translation>捏造された引用</translation>
        </message>
        <message>
            <source>Missing citation</source>
            <translation>引用なし</translation>
        </message>
        <message>
            <source>Wrong citation</source>
            <translation>誤った引用</translation>
        </message>
        <message>
            <source>Partial answer</source>
            <translation>部分的な回答</translation>
        </message>
        <message>
            <source>Wrong answer</source>
            <translation>誤った回答</translation>
        </message>
        <message>
            <source>The answer equals the gold answer (after normalization).</source>
            <translation>回答が正解と一致する(正規化後)。</translation>
        </message>
        <message>
            <source>The completion does not follow the step format to an &lt;answer&gt;.</source>
            <translation>出力がステップ形式に従って &lt;answer&gt; まで書かれていない。</translation>
        </message>
        <message>
            <source>The answer shares some characters with the gold answer but is not it.</source>
            <translation>回答は正解と一部の文字を共有するが、正解ではない。</translation>
        </message>
        <message>
            <source>The answer shares no character with the gold answer.</source>
            <translation>回答は正解と一文字も共有しない。</translation>
        </message>
        <message>
            <source>Contradiction</source>
            <translation>矛盾</translation>
        </message>
        <message>
            <source>Incomplete answer</source>
            <translation>不完全な回答</translation>
        </message>
        <message>
            <source>Exact match</source>
            <translation>完全一致</translation>
        </message>
        <message>
            <source>Not JSON</source>
            <translation>JSON でない</translation>
        </message>
        <message>
            <source>Field mismatch</source>
            <translation>フィールド不一致</translation>
        </message>
        <message>
            <source>Different</source>
            <translation>不一致</translation>
        </message>
        <message>
            <source>The reply is the gold reply (white space at the ends aside).</source>
            <translation>返答が正解の返答と同じ（両端の空白は除く）。</translation>
        </message>
        <message>
            <source>The gold reply is a JSON object and the reply is not one.</source>
            <translation>正解の返答は JSON オブジェクトだが、返答はそうでない。</translation>
        </message>
        <message>
            <source>Both are JSON objects, but a field of the gold has another value or is missing.</source>
            <translation>どちらも JSON オブジェクトだが、正解のフィールドに値の異なるものか欠けているものがある。</translation>
        </message>
        <message>
            <source>The gold reply is not a JSON object and the reply differs from it.</source>
            <translation>正解の返答は JSON オブジェクトでなく、返答がそれと異なる。</translation>
        </message>
        <message>
            <source>Cites exactly the gold sections in the prompt, states every reference fact and contradicts none.</source>
            <translation>プロンプト内の正解条文をちょうど引用し、参照事実をすべて記載し、矛盾がない。</translation>
        </message>
        <message>
            <source>The completion is not &lt;reasoning&gt;, &lt;answer&gt;, &lt;citation&gt; in that order and nothing else.</source>
            <translation>出力が &lt;reasoning&gt;、&lt;answer&gt;、&lt;citation&gt; をこの順に並べただけの形になっていない。</translation>
        </message>
        <message>
            <source>Cites a law code that is not among the sections in the prompt.</source>
            <translation>プロンプト内の条文にない法令コードを引用している。</translation>
        </message>
        <message>
            <source>Cites no law code.</source>
            <translation>法令コードを一つも引用していない。</translation>
        </message>
        <message>
            <source>Cites sections of the prompt, but not exactly the gold ones (a near-duplicate, one of two, an extra one).</source>
            <translation>プロンプト内の条文を引用しているが、正解条文とちょうど一致しない（類似条文、二つのうち一つ、余分な条文）。</translation>
        </message>
        <message>
            <source>Cites the right sections but states a reference fact with another value (a deadline, an amount, an authority).</source>
            <translation>正しい条文を引用しているが、参照事実を別の値（期限、金額、行政庁）で述べている。</translation>
        </message>
        <message>
            <source>Cites the right sections and contradicts nothing, but leaves out a reference fact.</source>
            <translation>正しい条文を引用し矛盾もないが、参照事実の一部が抜けている。</translation>
        </message>
        <message>
            <source>Failure category:</source>
            <translation>失敗カテゴリ:</translation>
        </message>
</context>
    <context>
        <name>JudgeAgreement</name>
        <message>
            <source>none</source>
            <translation>網羅なし</translation>
        </message>
        <message>
            <source>partial</source>
            <translation>一部網羅</translation>
        </message>
        <message>
            <source>full</source>
            <translation>完全網羅</translation>
        </message>
        <message>
            <source>contradiction</source>
            <translation>矛盾あり</translation>
        </message>
        <message>
            <source>consistent</source>
            <translation>矛盾なし</translation>
        </message>
    </context>
    <context>
        <name>JudgeVerdictSummary</name>
        <message>
            <source>full</source>
            <translation>完全網羅</translation>
        </message>
        <message>
            <source>partial</source>
            <translation>一部網羅</translation>
        </message>
        <message>
            <source>none</source>
            <translation>網羅なし</translation>
        </message>
        <message>
            <source>contradiction</source>
            <translation>矛盾あり</translation>
        </message>
        <message>
            <source>no contradiction</source>
            <translation>矛盾なし</translation>
        </message>
        <message>
            <source>met</source>
            <translation>満たす</translation>
        </message>
        <message>
            <source>not met</source>
            <translation>満たさない</translation>
        </message>
        <message>
            <source>score %1/10</source>
            <translation>スコア %1/10</translation>
        </message>
        <message>
            <source>verdict %1</source>
            <translation>判定 %1</translation>
        </message>
        <message>
            <source>%1 of %2 met</source>
            <translation>%2 項目中 %1 項目を満たす</translation>
        </message>
        <message>
            <source>rating %1</source>
            <translation>評価 %1</translation>
        </message>
        <message>
            <source>(G-Eval %1)</source>
            <translation>(G-Eval %1)</translation>
        </message>
        <message>
            <source>(fallback)</source>
            <translation>(フォールバック)</translation>
        </message>
    </context>
    <context>
        <name>RewardValue</name>
        <message>
            <source>None</source>
            <translation>なし</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JudgeConfusionModel</name>
        <message>
            <source>any</source>
            <translation>すべて</translation>
        </message>
        <message>
            <source>Grader %1, judge %2: 1 call. Click to list it.</source>
            <translation>採点器 %1、審査モデル %2：1 件の呼び出し。クリックで一覧表示。</translation>
        </message>
        <message>
            <source>Grader %1, judge %2: %3 calls. Click to list them.</source>
            <translation>採点器 %1、審査モデル %2：%3 件の呼び出し。クリックで一覧表示。</translation>
        </message>
        <message>
            <source>Total</source>
            <translation>合計</translation>
        </message>
        <message>
            <source>The judge said %1</source>
            <translation>審査モデルの判定：%1</translation>
        </message>
        <message>
            <source>The reference grader said %1</source>
            <translation>参照採点器の判定：%1</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JudgeDecisionDetailView</name>
        <message>
            <source>Select a judge call to see the prompt it was sent, its raw reply, what was read from it and the rollout it judged.</source>
            <translation>審査の呼び出しを選ぶと、送ったプロンプト、生の応答、そこから読み取った内容、審査したロールアウトを表示します。</translation>
        </message>
        <message>
            <source>rollout %1 (group %2, sample %3)</source>
            <translation>ロールアウト %1（グループ %2、サンプル %3）</translation>
        </message>
        <message>
            <source>rollout %1</source>
            <translation>ロールアウト %1</translation>
        </message>
        <message>
            <source>evaluation example %1</source>
            <translation>評価の例 %1</translation>
        </message>
        <message>
            <source>Judge call %1 · %2 · step %3 · %4</source>
            <translation>審査呼び出し %1 · %2 · ステップ %3 · %4</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>値</translation>
        </message>
        <message>
            <source>Verdict</source>
            <translation>判定</translation>
        </message>
        <message>
            <source>Latency</source>
            <translation>所要時間</translation>
        </message>
        <message>
            <source>%1 s</source>
            <translation>%1 秒</translation>
        </message>
        <message>
            <source>Tokens</source>
            <translation>トークン数</translation>
        </message>
        <message>
            <source>%1 prompt + %2 completion</source>
            <translation>プロンプト %1 + 出力 %2</translation>
        </message>
        <message>
            <source>Cost</source>
            <translation>費用</translation>
        </message>
        <message>
            <source>Cache</source>
            <translation>キャッシュ</translation>
        </message>
        <message>
            <source>hit (answered from the cache)</source>
            <translation>ヒット（キャッシュから応答）</translation>
        </message>
        <message>
            <source>miss (sent to the judge)</source>
            <translation>ミス（審査モデルに送信）</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>試行回数</translation>
        </message>
        <message>
            <source>Backend</source>
            <translation>バックエンド</translation>
        </message>
        <message>
            <source>The call failed, so the reward is None for this rollout:</source>
            <translation>呼び出しが失敗したため、このロールアウトの報酬はなし（None）です：</translation>
        </message>
        <message>
            <source>The reply could not be read, so the reward is None for this rollout:</source>
            <translation>応答を読み取れなかったため、このロールアウトの報酬はなし（None）です：</translation>
        </message>
        <message>
            <source>coverage</source>
            <translation>網羅度</translation>
        </message>
        <message>
            <source>consistency</source>
            <translation>一貫性</translation>
        </message>
        <message>
            <source>The reference grader stored no %1 for this answer.</source>
            <translation>参照採点器はこの回答の%1を記録していません。</translation>
        </message>
        <message>
            <source>the judge gave None</source>
            <translation>審査モデルの判定はなし</translation>
        </message>
        <message>
            <source>the judge agrees (%1)</source>
            <translation>審査モデルも一致（%1）</translation>
        </message>
        <message>
            <source>the judge disagrees: %1</source>
            <translation>審査モデルは不一致：%1</translation>
        </message>
        <message>
            <source>Reference grader: %1 %2 (%3) — %4</source>
            <translation>参照採点器：%1 %2（%3）— %4</translation>
        </message>
        <message>
            <source>Read from the reply</source>
            <translation>応答から読み取った内容</translation>
        </message>
        <message>
            <source>essential</source>
            <translation>必須</translation>
        </message>
        <message>
            <source>important</source>
            <translation>重要</translation>
        </message>
        <message>
            <source>optional</source>
            <translation>任意</translation>
        </message>
        <message>
            <source>pitfall</source>
            <translation>落とし穴</translation>
        </message>
        <message>
            <source>unspecified</source>
            <translation>指定なし</translation>
        </message>
        <message>
            <source>✓ met</source>
            <translation>✓ 満たす</translation>
        </message>
        <message>
            <source>✗ not met</source>
            <translation>✗ 満たさない</translation>
        </message>
        <message>
            <source>score %1/10</source>
            <translation>スコア %1/10</translation>
        </message>
        <message>
            <source>the rubric&apos;s score: Σ weight·verdict / Σ positive weights, clamped to 0–1</source>
            <translation>ルーブリックのスコア：Σ 重み·判定 / Σ 正の重み、0–1 に制限</translation>
        </message>
        <message>
            <source>(no verdict: %1)</source>
            <translation>（判定なし：%1）</translation>
        </message>
        <message>
            <source>Σ of the items&apos; contributions, clamped to 0–1</source>
            <translation>各項目の寄与の和、0–1 に制限</translation>
        </message>
        <message>
            <source>None: an item has no verdict, and a score from the other items would not be honest</source>
            <translation>なし：判定のない項目があり、ほかの項目だけのスコアは正直な値になりません</translation>
        </message>
        <message>
            <source>Rubric items</source>
            <translation>ルーブリックの項目</translation>
        </message>
        <message>
            <source>Criterion</source>
            <translation>基準</translation>
        </message>
        <message>
            <source>Category</source>
            <translation>区分</translation>
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
            <source>Total</source>
            <translation>合計</translation>
        </message>
        <message>
            <source>Reply</source>
            <translation>応答</translation>
        </message>
        <message>
            <source>No reply: the call failed.</source>
            <translation>応答なし：呼び出しが失敗しました。</translation>
        </message>
        <message>
            <source>in a code fence</source>
            <translation>コードフェンス内</translation>
        </message>
        <message>
            <source>with other text around it</source>
            <translation>前後にほかのテキストあり</translation>
        </message>
        <message>
            <source>the whole reply</source>
            <translation>応答全体</translation>
        </message>
        <message>
            <source>Highlighted: the JSON object the verdict was read from (bytes %1–%2, %3).</source>
            <translation>強調表示：判定を読み取った JSON オブジェクト（%1–%2 バイト、%3）。</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>プロンプト</translation>
        </message>
        <message>
            <source>The stored request could not be read.</source>
            <translation>記録されたリクエストを読み取れません。</translation>
        </message>
        <message>
            <source>model %1</source>
            <translation>モデル %1</translation>
        </message>
        <message>
            <source>System</source>
            <translation>システム</translation>
        </message>
        <message>
            <source>User</source>
            <translation>ユーザー</translation>
        </message>
        <message>
            <source>Assistant</source>
            <translation>アシスタント</translation>
        </message>
        <message>
            <source>The rollout judged</source>
            <translation>審査したロールアウト</translation>
        </message>
        <message>
            <source>open in the rollout browser</source>
            <translation>ロールアウトブラウザーで開く</translation>
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
            <source>Reward</source>
            <translation>報酬</translation>
        </message>
        <message>
            <source>Show less</source>
            <translation>折りたたむ</translation>
        </message>
        <message>
            <source>Show all %1 characters</source>
            <translation>全 %1 文字を表示</translation>
        </message>
        <message>
            <source>Completion</source>
            <translation>モデルの出力</translation>
        </message>
        <message>
            <source>The evaluation prediction judged</source>
            <translation>審査した評価の予測</translation>
        </message>
        <message>
            <source>Example</source>
            <translation>例</translation>
        </message>
        <message>
            <source>Prediction</source>
            <translation>予測</translation>
        </message>
        <message>
            <source>Correct</source>
            <translation>正誤</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>はい</translation>
        </message>
        <message>
            <source>no</source>
            <translation>いいえ</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JudgeDecisionModel</name>
        <message>
            <source>call failed</source>
            <translation>呼び出し失敗</translation>
        </message>
        <message>
            <source>unreadable reply</source>
            <translation>読み取れない応答</translation>
        </message>
        <message>
            <source>Rollout %1 (group %2, sample %3)</source>
            <translation>ロールアウト %1（グループ %2、サンプル %3）</translation>
        </message>
        <message>
            <source>Evaluation of checkpoint %1: example %2</source>
            <translation>チェックポイント %1 の評価：例 %2</translation>
        </message>
        <message>
            <source>None: the judge gave no verdict, so the reward gave no value for this rollout.</source>
            <translation>なし：審査モデルが判定を返さなかったため、この報酬はこのロールアウトに値を与えていません。</translation>
        </message>
        <message>
            <source>The reply was not in the shape asked for; a documented fallback read it.</source>
            <translation>応答は指定した形ではありませんでしたが、文書化されたフォールバックで読み取りました。</translation>
        </message>
        <message>
            <source>prompt %1 + completion %2 tokens</source>
            <translation>プロンプト %1 + 出力 %2 トークン</translation>
        </message>
        <message>
            <source>hit</source>
            <translation>ヒット</translation>
        </message>
        <message>
            <source>The rollout judged (its id, group and sample), or the evaluated example</source>
            <translation>審査したロールアウト（ID、グループ、サンプル）、または評価した例</translation>
        </message>
        <message>
            <source>What of the rubric the call judged: one item, or all of it when empty</source>
            <translation>呼び出しが審査したルーブリックの部分：1 項目、空欄ならすべて</translation>
        </message>
        <message>
            <source>What the verdict gave this part of the reward (None: no verdict)</source>
            <translation>判定がこの報酬の部分に与えた値（なし：判定なし）</translation>
        </message>
        <message>
            <source>Wall time of the call in seconds, retries included (0 for a cache hit)</source>
            <translation>呼び出しの経過時間（秒、再試行を含む。キャッシュヒットは 0）</translation>
        </message>
        <message>
            <source>Prompt and completion tokens (0 for a cache hit)</source>
            <translation>プロンプトと出力のトークン数（キャッシュヒットは 0）</translation>
        </message>
        <message>
            <source>Tokens × the judge&apos;s price table (0 for a cache hit)</source>
            <translation>トークン数 × 審査モデルの料金表（キャッシュヒットは 0）</translation>
        </message>
        <message>
            <source>HTTP attempts (0 for a cache hit)</source>
            <translation>HTTP の試行回数（キャッシュヒットは 0）</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>Rollout / example</source>
            <translation>ロールアウト / 例</translation>
        </message>
        <message>
            <source>Reward</source>
            <translation>報酬</translation>
        </message>
        <message>
            <source>Part</source>
            <translation>部分</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>値</translation>
        </message>
        <message>
            <source>Verdict</source>
            <translation>判定</translation>
        </message>
        <message>
            <source>Latency (s)</source>
            <translation>所要時間（秒）</translation>
        </message>
        <message>
            <source>Tokens</source>
            <translation>トークン数</translation>
        </message>
        <message>
            <source>Cost</source>
            <translation>費用</translation>
        </message>
        <message>
            <source>Cache</source>
            <translation>キャッシュ</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>試行</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>エラー</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JudgeDecisionView</name>
        <message>
            <source>Reading the judge decisions stopped: %1</source>
            <translation>審査判定の読み込みが止まりました：%1</translation>
        </message>
        <message>
            <source>Reward</source>
            <translation>報酬</translation>
        </message>
        <message>
            <source>Value / verdict</source>
            <translation>値 / 判定</translation>
        </message>
        <message>
            <source>e.g. None, full, not met, rating 3, timed out</source>
            <translation>例：なし、完全網羅、満たさない、評価 3、timed out</translation>
        </message>
        <message>
            <source>Shows the calls whose value, verdict, part or error contains this text</source>
            <translation>値、判定、部分、エラーにこの文字列を含む呼び出しを表示します</translation>
        </message>
        <message>
            <source>Failures</source>
            <translation>失敗</translation>
        </message>
        <message>
            <source>any</source>
            <translation>すべて</translation>
        </message>
        <message>
            <source>call or parse failures</source>
            <translation>呼び出しまたは読み取りの失敗</translation>
        </message>
        <message>
            <source>call failures</source>
            <translation>呼び出しの失敗</translation>
        </message>
        <message>
            <source>parse failures</source>
            <translation>読み取りの失敗</translation>
        </message>
        <message>
            <source>no failure</source>
            <translation>失敗なし</translation>
        </message>
        <message>
            <source>Cache</source>
            <translation>キャッシュ</translation>
        </message>
        <message>
            <source>hits only</source>
            <translation>ヒットのみ</translation>
        </message>
        <message>
            <source>misses only</source>
            <translation>ミスのみ</translation>
        </message>
        <message>
            <source>Latency ≥</source>
            <translation>所要時間 ≥</translation>
        </message>
        <message>
            <source> s</source>
            <translation> 秒</translation>
        </message>
        <message>
            <source>Shows the calls that took at least this long (retries included)</source>
            <translation>少なくともこの時間がかかった呼び出しを表示します（再試行を含む）</translation>
        </message>
        <message>
            <source>← Previous</source>
            <translation>← 前へ</translation>
        </message>
        <message>
            <source>Next →</source>
            <translation>次へ →</translation>
        </message>
        <message>
            <source>Previous call of the filtered list (← on the list, Alt+← anywhere)</source>
            <translation>絞り込んだ一覧の前の呼び出し（一覧で ←、どこでも Alt+←）</translation>
        </message>
        <message>
            <source>Next call of the filtered list (→ on the list, Alt+→ anywhere)</source>
            <translation>絞り込んだ一覧の次の呼び出し（一覧で →、どこでも Alt+→）</translation>
        </message>
        <message>
            <source>&lt;b&gt;Agreement with the reference grader&lt;/b&gt;&lt;br&gt;Rows: the grader&apos;s label; columns: the judge&apos;s. Click a cell to list its calls.</source>
            <translation>&lt;b&gt;参照採点器との一致&lt;/b&gt;&lt;br&gt;行：採点器のラベル、列：審査モデルのラベル。セルをクリックするとその呼び出しを一覧表示します。</translation>
        </message>
        <message>
            <source>all</source>
            <translation>すべて</translation>
        </message>
        <message>
            <source>Cannot show the judge decisions of run %1 in %2: %3</source>
            <translation>%2 の実行 %1 の審査判定を表示できません：%3</translation>
        </message>
        <message>
            <source>%1 of %2 calls</source>
            <translation>%2 件中 %1 件の呼び出し</translation>
        </message>
        <message>
            <source>1 call</source>
            <translation>1 件の呼び出し</translation>
        </message>
        <message>
            <source>%1 calls</source>
            <translation>%1 件の呼び出し</translation>
        </message>
        <message>
            <source>(reading…)</source>
            <translation>（読み込み中…）</translation>
        </message>
        <message>
            <source>Only the calls for rollout %1 (&lt;a href=&quot;#clear-rollout&quot;&gt;show all&lt;/a&gt;)</source>
            <translation>ロールアウト %1 の呼び出しのみ（&lt;a href=&quot;#clear-rollout&quot;&gt;すべて表示&lt;/a&gt;）</translation>
        </message>
        <message>
            <source>Only %1 calls with grader %2 and judge %3 (&lt;a href=&quot;#clear-cell&quot;&gt;show all&lt;/a&gt;)</source>
            <translation>採点器 %2、審査モデル %3 の %1 の呼び出しのみ（&lt;a href=&quot;#clear-cell&quot;&gt;すべて表示&lt;/a&gt;）</translation>
        </message>
        <message>
            <source>label</source>
            <translation>ラベル</translation>
        </message>
        <message>
            <source>precision</source>
            <translation>適合率</translation>
        </message>
        <message>
            <source>recall</source>
            <translation>再現率</translation>
        </message>
        <message>
            <source>F1</source>
            <translation>F1</translation>
        </message>
        <message>
            <source>n</source>
            <translation>件数</translation>
        </message>
        <message>
            <source>Agreement &lt;b&gt;%1&lt;/b&gt; of %2 · macro F1 %3</source>
            <translation>一致率 &lt;b&gt;%1&lt;/b&gt;（%2 件中）· マクロ F1 %3</translation>
        </message>
        <message>
            <source>%1 without a verdict (None)</source>
            <translation>判定なし（None）%1 件</translation>
        </message>
        <message>
            <source>%1 without a reference grade</source>
            <translation>参照の採点なし %1 件</translation>
        </message>
        <message>
            <source>Left out: %1</source>
            <translation>除外：%1</translation>
        </message>
        <message>
            <source>%1: the judge against the reference grader</source>
            <translation>%1：審査モデルと参照採点器</translation>
        </message>
        <message>
            <source>Judge call %1: %2</source>
            <translation>審査呼び出し %1：%2</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JudgeSettingsWidget</name>
        <message>
            <source>The judge&apos;s model folder</source>
            <translation>審査モデルのモデルフォルダー</translation>
        </message>
        <message>
            <source>The judge&apos;s cache file</source>
            <translation>審査モデルのキャッシュファイル</translation>
        </message>
        <message>
            <source>SQLite files (*.sqlite *.db);;All files (*)</source>
            <translation>SQLite ファイル (*.sqlite *.db);;すべてのファイル (*)</translation>
        </message>
        <message>
            <source>&amp;Backend:</source>
            <translation>バックエンド(&amp;B):</translation>
        </message>
        <message>
            <source>http: an OpenAI-compatible server (vLLM, llama.cpp, rwb serve, a hosted API); local: a model folder run in this process</source>
            <translation>http：OpenAI 互換サーバー（vLLM、llama.cpp、rwb serve、ホスト型 API）。local：このプロセス内で動かすモデルフォルダー</translation>
        </message>
        <message>
            <source>&amp;URL:</source>
            <translation>URL(&amp;U):</translation>
        </message>
        <message>
            <source>The server&apos;s base URL; /chat/completions is added</source>
            <translation>サーバーのベース URL（/chat/completions を付けて送信）</translation>
        </message>
        <message>
            <source>&amp;Model:</source>
            <translation>モデル(&amp;M):</translation>
        </message>
        <message>
            <source>The model named in each request (local: the folder&apos;s name when empty)</source>
            <translation>各リクエストで指定するモデル名（local では空ならフォルダー名）</translation>
        </message>
        <message>
            <source>&amp;Folder:</source>
            <translation>フォルダー(&amp;F):</translation>
        </message>
        <message>
            <source>A model folder (Hugging Face layout) that the local backend runs</source>
            <translation>local バックエンドが動かすモデルフォルダー（Hugging Face 形式）</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>参照…</translation>
        </message>
        <message>
            <source>API &amp;key variable:</source>
            <translation>API キーの変数(&amp;K):</translation>
        </message>
        <message>
            <source>The NAME of the environment variable holding the API key; the key itself is never written into a config</source>
            <translation>API キーを持つ環境変数の「名前」。キーそのものは設定ファイルに書きません</translation>
        </message>
        <message>
            <source>&amp;Concurrency:</source>
            <translation>同時実行数(&amp;C):</translation>
        </message>
        <message>
            <source>Judge calls in flight at once</source>
            <translation>同時に送る審査の呼び出しの数</translation>
        </message>
        <message>
            <source>C&amp;ache:</source>
            <translation>キャッシュ(&amp;A):</translation>
        </message>
        <message>
            <source>Keep every reply in a SQLite file: the same request is never sent twice, across sessions and runs</source>
            <translation>すべての応答を SQLite ファイルに保存します。同じリクエストは、セッションや実行をまたいでも二度送りません</translation>
        </message>
        <message>
            <source>The cache file (SQLite); relative to the config&apos;s folder</source>
            <translation>キャッシュファイル（SQLite）。相対パスは設定ファイルのフォルダーから</translation>
        </message>
        <message>
            <source>&amp;Test the judge</source>
            <translation>審査モデルをテスト(&amp;T)</translation>
        </message>
        <message>
            <source>Send one small request, past the cache, and show what came back</source>
            <translation>キャッシュを通さずに小さなリクエストを 1 件送り、返ってきた内容を表示します</translation>
        </message>
        <message>
            <source>judge: not a JSON object (%1)</source>
            <translation>judge: JSON オブジェクトではありません（%1）</translation>
        </message>
        <message>
            <source>judge.url: missing: give the judge server&apos;s base URL</source>
            <translation>judge.url: 未指定：審査サーバーのベース URL を入力してください</translation>
        </message>
        <message>
            <source>judge.folder: missing: give the judge&apos;s model folder</source>
            <translation>judge.folder: 未指定：審査モデルのフォルダーを指定してください</translation>
        </message>
        <message>
            <source>Asking the judge at %1…</source>
            <translation>%1 の審査モデルに問い合わせ中…</translation>
        </message>
        <message>
            <source>The judge at %1 answered in %2 s as the model “%3”: %4</source>
            <translation>%1 の審査モデルがモデル「%3」として %2 秒で応答しました：%4</translation>
        </message>
        <message>
            <source>The judge at %1 did not answer: %2</source>
            <translation>%1 の審査モデルから応答がありません：%2</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RubricEditor</name>
        <message>
            <source>%1: cannot open: %2</source>
            <translation>%1: 開けません: %2</translation>
        </message>
        <message>
            <source>%1: cannot write: %2</source>
            <translation>%1: 書き込めません: %2</translation>
        </message>
        <message>
            <source>&lt;b&gt;Rubric&lt;/b&gt; from %1</source>
            <translation>%1 の&lt;b&gt;ルーブリック&lt;/b&gt;</translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;Rubric&lt;/b&gt; of the question of %1 (%n sample(s))</source>
            <translation>
                <numerusform>%1 の質問の&lt;b&gt;ルーブリック&lt;/b&gt;（%n 件のサンプル）</numerusform>
            </translation>
        </message>
        <message>
            <source>&lt;b&gt;Rubric&lt;/b&gt;: none open</source>
            <translation>&lt;b&gt;ルーブリック&lt;/b&gt;：開いていません</translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;Rubric&lt;/b&gt;: the question of %1 has none (%n sample(s)); add items or open a file</source>
            <translation>
                <numerusform>&lt;b&gt;ルーブリック&lt;/b&gt;：%1 の質問にはありません（%n 件のサンプル）。項目を追加するかファイルを開いてください</numerusform>
            </translation>
        </message>
        <message>
            <source>Add</source>
            <translation>追加</translation>
        </message>
        <message>
            <source>Add an item after the selected one</source>
            <translation>選択した項目の後に項目を追加します</translation>
        </message>
        <message>
            <source>Apply &amp;to:</source>
            <translation>適用先(&amp;T):</translation>
        </message>
        <message>
            <source>Apply and re-score</source>
            <translation>適用して再採点</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>削除</translation>
        </message>
        <message>
            <source>Delete the selected item</source>
            <translation>選択した項目を削除します</translation>
        </message>
        <message>
            <source>Edit the rubric of the selected sample&apos;s question</source>
            <translation>選択したサンプルの質問のルーブリックを編集します</translation>
        </message>
        <message>
            <source>Explicit score of %1: %2</source>
            <translation>%1 の明示的スコア：%2</translation>
        </message>
        <message>
            <source>Explicit score of %1: — (an item has no verdict)</source>
            <translation>%1 の明示的スコア：—（判定のない項目があります）</translation>
        </message>
        <message>
            <source>HealthBench form (*.json)</source>
            <translation>HealthBench 形式 (*.json)</translation>
        </message>
        <message>
            <source>Judge the samples with these items: calls whose request did not change come from the cache, only the edited items are sent again</source>
            <translation>これらの項目でサンプルを審査します：リクエストが変わらない呼び出しはキャッシュから、編集した項目だけを送り直します</translation>
        </message>
        <message>
            <source>Move the selected item down</source>
            <translation>選択した項目を下へ移動します</translation>
        </message>
        <message>
            <source>Move the selected item up</source>
            <translation>選択した項目を上へ移動します</translation>
        </message>
        <message>
            <source>Open a rubric</source>
            <translation>ルーブリックを開く</translation>
        </message>
        <message>
            <source>Open a rubric file: RaR ({title, description, weight}) or HealthBench ({criterion, points, tags})</source>
            <translation>ルーブリックファイルを開きます：RaR（{title, description, weight}）または HealthBench（{criterion, points, tags}）</translation>
        </message>
        <message>
            <source>Open…</source>
            <translation>開く…</translation>
        </message>
        <message>
            <source>RaR form (*.json)</source>
            <translation>RaR 形式 (*.json)</translation>
        </message>
        <message>
            <source>Rubrics (*.json);;All files (*)</source>
            <translation>ルーブリック (*.json);;すべてのファイル (*)</translation>
        </message>
        <message>
            <source>Save as…</source>
            <translation>名前を付けて保存…</translation>
        </message>
        <message>
            <source>Save the items as a rubric file in the RaR or the HealthBench form</source>
            <translation>項目を RaR 形式または HealthBench 形式のルーブリックファイルに保存します</translation>
        </message>
        <message>
            <source>Save the rubric</source>
            <translation>ルーブリックを保存</translation>
        </message>
        <message>
            <source>Selected sample</source>
            <translation>選択中のサンプル</translation>
        </message>
        <message>
            <source>The rubric has edits that are neither applied nor saved. Discard them?</source>
            <translation>ルーブリックに、適用も保存もしていない編集があります。破棄しますか？</translation>
        </message>
        <message>
            <source>The rubric has no items.</source>
            <translation>ルーブリックに項目がありません。</translation>
        </message>
        <message>
            <source>Unsaved rubric</source>
            <translation>未保存のルーブリック</translation>
        </message>
        <message>
            <source>edited</source>
            <translation>編集済み</translation>
        </message>
        <message>
            <source>every sample</source>
            <translation>すべてのサンプル</translation>
        </message>
        <message>
            <source>this question&apos;s samples</source>
            <translation>この質問のサンプル</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RubricModel</name>
        <message>
            <source>A pitfall is “met” when the answer makes the mistake it describes.</source>
            <translation>落とし穴項目は、回答がその誤りを犯したときに「満たす」となります。</translation>
        </message>
        <message>
            <source>A pitfall&apos;s weight is negative: a met pitfall subtracts |w|.</source>
            <translation>落とし穴項目の重みは負：満たすと |w| を減点します。</translation>
        </message>
        <message>
            <source>A short label (optional)</source>
            <translation>短いラベル（任意）</translation>
        </message>
        <message>
            <source>Category</source>
            <translation>区分</translation>
        </message>
        <message>
            <source>Contribution</source>
            <translation>寄与</translation>
        </message>
        <message>
            <source>Criterion</source>
            <translation>基準</translation>
        </message>
        <message>
            <source>Essential</source>
            <translation>必須</translation>
        </message>
        <message>
            <source>Essential, Important, Optional or Pitfall (a mistake: negative weight)</source>
            <translation>必須・重要・任意・落とし穴（誤り：負の重み）</translation>
        </message>
        <message>
            <source>Important</source>
            <translation>重要</translation>
        </message>
        <message>
            <source>No verdict of the judge on this item as written (re-score to ask).</source>
            <translation>この文面の項目には審査モデルの判定がありません（再採点で問い合わせます）。</translation>
        </message>
        <message>
            <source>Optional</source>
            <translation>任意</translation>
        </message>
        <message>
            <source>Pitfall</source>
            <translation>落とし穴</translation>
        </message>
        <message>
            <source>The judge&apos;s verdict on the item for the selected sample</source>
            <translation>選択したサンプルに対する、この項目の審査モデルの判定</translation>
        </message>
        <message>
            <source>The most this item earns; the score divides by the sum of the positive weights (%1).</source>
            <translation>この項目で得られる最大の点。スコアは正の重みの和（%1）で割ります。</translation>
        </message>
        <message>
            <source>Title</source>
            <translation>タイトル</translation>
        </message>
        <message>
            <source>Unspecified</source>
            <translation>指定なし</translation>
        </message>
        <message>
            <source>Verdict</source>
            <translation>判定</translation>
        </message>
        <message>
            <source>Weight</source>
            <translation>重み</translation>
        </message>
        <message>
            <source>What the judge checks, written so that it can be judged alone</source>
            <translation>審査モデルが確かめる内容。その項目だけで判定できるように書きます</translation>
        </message>
        <message>
            <source>Whether the answer meets the criterion, as the judge read it.</source>
            <translation>審査モデルが読み取った、回答が基準を満たすかどうか。</translation>
        </message>
        <message>
            <source>met</source>
            <translation>満たす</translation>
        </message>
        <message>
            <source>not met</source>
            <translation>満たさない</translation>
        </message>
        <message>
            <source>w·c / Σw⁺: the item&apos;s part of the explicit score</source>
            <translation>w·c / Σw⁺：明示的スコアに占めるこの項目の分</translation>
        </message>
    </context>
    <context>
        <name>MctsOutcome</name>
        <message>
            <source>right</source>
            <translation>正答</translation>
        </message>
        <message>
            <source>partial</source>
            <translation>部分正答</translation>
        </message>
        <message>
            <source>wrong</source>
            <translation>誤答</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::MctsNodeDetail</name>
        <message>
            <source>Click a node of the tree to see its steps, passages and answer.</source>
            <translation>木のノードをクリックすると、そのステップ・パッセージ・回答が表示されます。</translation>
        </message>
        <message>
            <source>none</source>
            <translation>なし</translation>
        </message>
        <message>
            <source>gold</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>Sub-query</source>
            <translation>サブクエリ</translation>
        </message>
        <message>
            <source>Retrieved</source>
            <translation>検索結果</translation>
        </message>
        <message>
            <source>Sub-answer</source>
            <translation>サブ回答</translation>
        </message>
        <message>
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>The step does not follow the format: %1</source>
            <translation>ステップが形式に従っていません: %1</translation>
        </message>
        <message>
            <source>Root</source>
            <translation>ルート</translation>
        </message>
        <message>
            <source>Node #%1 · depth %2</source>
            <translation>ノード #%1 · 深さ %2</translation>
        </message>
        <message>
            <source>created at iteration %1</source>
            <translation>反復 %1 で作成</translation>
        </message>
        <message>
            <source>at iteration %1: N %2 · Q %3 · W %4</source>
            <translation>反復 %1 時点: N %2 · Q %3 · W %4</translation>
        </message>
        <message>
            <source>prior P %1</source>
            <translation>事前確率 P %1</translation>
        </message>
        <message>
            <source>%1 tokens, log-prob %2 (%3 per token)</source>
            <translation>%1 トークン、対数確率 %2 (トークンあたり %3)</translation>
        </message>
        <message>
            <source>This node does not exist yet at iteration %1: it is created at iteration %2. Its texts are shown from the final tree.</source>
            <translation>このノードは反復 %1 の時点ではまだありません (反復 %2 で作成されます)。テキストは最終の木から表示しています。</translation>
        </message>
        <message>
            <source>Answer: %1</source>
            <translation>回答: %1</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>(なし)</translation>
        </message>
        <message>
            <source>Gold answer: %1</source>
            <translation>正解: %1</translation>
        </message>
        <message>
            <source>Exact match %1 · F1 %2 · value %3</source>
            <translation>完全一致 %1 · F1 %2 · 価値 %3</translation>
        </message>
        <message>
            <source>Question</source>
            <translation>質問</translation>
        </message>
        <message>
            <source>Gold answer: %1 · gold passages: %2</source>
            <translation>正解: %1 · 正解パッセージ: %2</translation>
        </message>
        <message>
            <source>History (root → this node)</source>
            <translation>経路 (ルート → このノード)</translation>
        </message>
        <message>
            <source>Step %1</source>
            <translation>ステップ %1</translation>
        </message>
        <message>
            <source>#%1 · N %2 · Q %3 · P %4</source>
            <translation>#%1 · N %2 · Q %3 · P %4</translation>
        </message>
        <message>
            <source>This step</source>
            <translation>このステップ</translation>
        </message>
        <message>
            <source>PRM score R %1 (σ(R) %2)</source>
            <translation>PRM スコア R %1(σ(R) %2)</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::MctsSiblingsView</name>
        <message>
            <source>The root has no siblings.</source>
            <translation>ルートには兄弟ノードがありません。</translation>
        </message>
        <message>
            <source>Select a node to compare it with its siblings.</source>
            <translation>ノードを選ぶと、兄弟ノードと並べて比べられます。</translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;Siblings&lt;/b&gt;: the %n step(s) offered after node #%1, side by side (the selected one framed)</source>
            <translation>
                <numerusform>&lt;b&gt;兄弟ノード&lt;/b&gt;: ノード #%1 の次に出された %n 個のステップを並べて表示 (選択中のものは枠付き)</numerusform>
            </translation>
        </message>
        <message>
            <source>PUCT score at iteration %1: %2</source>
            <translation>反復 %1 の PUCT スコア: %2</translation>
        </message>
        <message>
            <source>%1 · value %2</source>
            <translation>%1 · 価値 %2</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>Sub-query</source>
            <translation>サブクエリ</translation>
        </message>
        <message>
            <source>Sub-answer</source>
            <translation>サブ回答</translation>
        </message>
        <message>
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>Text (not in the step format)</source>
            <translation>テキスト (ステップの形式ではありません)</translation>
        </message>
        <message>
            <source>compare with #%1</source>
            <translation>#%1 と比較</translation>
        </message>
        <message>
            <source>PRM %1</source>
            <translation>PRM %1</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::MctsTreeListModel</name>
        <message>
            <source>%1
Gold answer: %2
Best path&apos;s answer: %3</source>
            <translation>%1
正解: %2
最多訪問経路の回答: %3</translation>
        </message>
        <message>
            <source>none</source>
            <translation>なし</translation>
        </message>
        <message>
            <source>The search has not run all its simulations (yet)</source>
            <translation>この探索はまだすべてのシミュレーションを終えていません</translation>
        </message>
        <message>
            <source>Id</source>
            <translation>ID</translation>
        </message>
        <message>
            <source>Question</source>
            <translation>質問</translation>
        </message>
        <message>
            <source>Hops</source>
            <translation>ホップ</translation>
        </message>
        <message>
            <source>Best path&apos;s answer</source>
            <translation>最多訪問経路の回答</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>価値</translation>
        </message>
        <message>
            <source>Best found</source>
            <translation>最良の発見</translation>
        </message>
        <message>
            <source>Nodes</source>
            <translation>ノード</translation>
        </message>
        <message>
            <source>Depth</source>
            <translation>深さ</translation>
        </message>
        <message>
            <source>Iterations</source>
            <translation>反復</translation>
        </message>
        <message>
            <source>The answer at the end of the most visited path</source>
            <translation>最も多く訪問された経路の終端の回答</translation>
        </message>
        <message>
            <source>The value (answer F1) of the most visited path&apos;s answer</source>
            <translation>最も多く訪問された経路の回答の価値 (回答の F1)</translation>
        </message>
        <message>
            <source>The best value any answer of the search reached</source>
            <translation>探索中のいずれかの回答が達した最良の価値</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::MctsTreeView</name>
        <message>
            <source>Iteration %1 cannot be replayed (%2); the final tree is shown.</source>
            <translation>反復 %1 を再現できません (%2)。最終の木を表示しています。</translation>
        </message>
        <message>
            <source>Root · the question</source>
            <translation>ルート · 質問</translation>
        </message>
        <message>
            <source>Node #%1 · depth %2 · created at iteration %3</source>
            <translation>ノード #%1 · 深さ %2 · 反復 %3 で作成</translation>
        </message>
        <message>
            <source>N %1 · Q %2 · W %3 · P %4</source>
            <translation>N %1 · Q %2 · W %3 · P %4</translation>
        </message>
        <message>
            <source>Answer: %1 · value %2 (%3)</source>
            <translation>回答: %1 · 価値 %2 (%3)</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>(なし)</translation>
        </message>
        <message>
            <source>At iteration %1&apos;s selection (c_puct %2):</source>
            <translation>反復 %1 の選択時 (c_puct %2):</translation>
        </message>
        <message>
            <source>score %1 = Q %2 + U %3 (P %4, N %5)</source>
            <translation>スコア %1 = Q %2 + U %3 (P %4, N %5)</translation>
        </message>
        <message>
            <source>Rank %1 of %2 by score; not compared this iteration (its parent was not selected)</source>
            <translation>スコア順位 %2 件中 %1 位。この反復では比較されていません (親が選ばれていません)</translation>
        </message>
        <message>
            <source>Chosen: rank %1 of %2 by score</source>
            <translation>選択: スコア順位 %2 件中 %1 位</translation>
        </message>
        <message>
            <source>Not chosen: rank %1 of %2; #%3 scored %4</source>
            <translation>非選択: 順位 %2 件中 %1 位。#%3 のスコアは %4</translation>
        </message>
        <message>
            <source>Created by this iteration (no PUCT score before it)</source>
            <translation>この反復で作成 (それ以前の PUCT スコアはありません)</translation>
        </message>
        <message>
            <source>Q 0 → 1</source>
            <translation>Q 0 → 1</translation>
        </message>
        <message>
            <source>unvisited</source>
            <translation>未訪問</translation>
        </message>
        <message>
            <source>size: visits</source>
            <translation>大きさ: 訪問回数</translation>
        </message>
        <message>
            <source>prior</source>
            <translation>事前確率</translation>
        </message>
        <message>
            <source>most visited path</source>
            <translation>最多訪問経路</translation>
        </message>
        <message>
            <source>this iteration&apos;s path</source>
            <translation>この反復の経路</translation>
        </message>
        <message>
            <source>Cannot write %1: %2</source>
            <translation>%1 を書き込めません: %2</translation>
        </message>
        <message>
            <source>no tree is shown</source>
            <translation>木が表示されていません</translation>
        </message>
        <message>
            <source>the image would be too large</source>
            <translation>画像が大きすぎます</translation>
        </message>
        <message>
            <source>the image could not be saved (is the name&apos;s extension .png?)</source>
            <translation>画像を保存できませんでした (名前の拡張子は .png ですか?)</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::MctsViewer</name>
        <message>
            <source>Filter: id, question or answer</source>
            <translation>絞り込み: ID・質問・回答</translation>
        </message>
        <message>
            <source>Wrong only</source>
            <translation>誤答のみ</translation>
        </message>
        <message>
            <source>Only the trees whose most visited path does not end in the right answer</source>
            <translation>最多訪問経路が正答で終わらない木だけを表示します</translation>
        </message>
        <message>
            <source>Before the first iteration (Home)</source>
            <translation>最初の反復の前 (Home)</translation>
        </message>
        <message>
            <source>Previous iteration (←)</source>
            <translation>前の反復 (←)</translation>
        </message>
        <message>
            <source>Next iteration (→)</source>
            <translation>次の反復 (→)</translation>
        </message>
        <message>
            <source>Last iteration (End)</source>
            <translation>最後の反復 (End)</translation>
        </message>
        <message>
            <source>The iteration shown: the tree as it stood after it</source>
            <translation>表示する反復: その反復を終えた時点の木</translation>
        </message>
        <message>
            <source>Follow</source>
            <translation>追従</translation>
        </message>
        <message>
            <source>Read the source again every second: new trees appear, and a tree that grew shows its last iteration</source>
            <translation>1 秒ごとに読み直します。新しい木が一覧に加わり、伸びた木は最後の反復を表示します</translation>
        </message>
        <message>
            <source>Find in the nodes&apos; texts (Enter: next match)</source>
            <translation>ノードのテキストを検索 (Enter: 次の一致)</translation>
        </message>
        <message>
            <source>Zoom out (−, Ctrl+wheel)</source>
            <translation>縮小 (−、Ctrl+ホイール)</translation>
        </message>
        <message>
            <source>Zoom in (+, Ctrl+wheel)</source>
            <translation>拡大 (+、Ctrl+ホイール)</translation>
        </message>
        <message>
            <source>Fit</source>
            <translation>全体</translation>
        </message>
        <message>
            <source>The whole tree in the view (0)</source>
            <translation>木全体を表示 (0)</translation>
        </message>
        <message>
            <source>Export</source>
            <translation>エクスポート</translation>
        </message>
        <message>
            <source>What is shown, as PNG…</source>
            <translation>表示中の部分を PNG で…</translation>
        </message>
        <message>
            <source>The whole tree, as PNG…</source>
            <translation>木全体を PNG で…</translation>
        </message>
        <message>
            <source>What is shown, as SVG…</source>
            <translation>表示中の部分を SVG で…</translation>
        </message>
        <message>
            <source>The whole tree, as SVG…</source>
            <translation>木全体を SVG で…</translation>
        </message>
        <message>
            <source>No tree</source>
            <translation>木なし</translation>
        </message>
        <message>
            <source>Cannot read the search trees: %1</source>
            <translation>探索木を読み込めません: %1</translation>
        </message>
        <message>
            <source>Cannot read the search tree: %1</source>
            <translation>探索木を読み込めません: %1</translation>
        </message>
        <message>
            <source>Iteration %1 / %2</source>
            <translation>反復 %1 / %2</translation>
        </message>
        <message>
            <source>No iteration log: the final tree is shown.</source>
            <translation>反復の記録がありません。最終の木を表示しています。</translation>
        </message>
        <message>
            <source>Before the first iteration: only the root.</source>
            <translation>最初の反復の前: ルートのみ。</translation>
        </message>
        <message>
            <source>Iteration %1: selected %2</source>
            <translation>反復 %1: 選択 %2</translation>
        </message>
        <message>
            <source>expanded #%1 into %2</source>
            <translation>#%1 を展開して %2</translation>
        </message>
        <message>
            <source>nothing expanded (a terminal leaf or the depth limit)</source>
            <translation>展開なし (終端の葉、または深さの上限)</translation>
        </message>
        <message>
            <source>evaluated #%1</source>
            <translation>#%1 を評価</translation>
        </message>
        <message>
            <source>backed up %1 from depth %2 (γ %3)</source>
            <translation>深さ %2 から %1 を逆伝播 (γ %3)</translation>
        </message>
        <message>
            <source>the simulation answered %1</source>
            <translation>シミュレーションの回答 %1</translation>
        </message>
        <message>
            <source>the simulation gave no answer</source>
            <translation>シミュレーションの回答なし</translation>
        </message>
        <message>
            <source>%1 s</source>
            <translation>%1 秒</translation>
        </message>
        <message>
            <source>&lt;i&gt;No search tree to show.&lt;/i&gt;</source>
            <translation>&lt;i&gt;表示する探索木がありません。&lt;/i&gt;</translation>
        </message>
        <message>
            <source>&lt;i&gt;No source of search trees.&lt;/i&gt;</source>
            <translation>&lt;i&gt;探索木の読み込み元がありません。&lt;/i&gt;</translation>
        </message>
        <message>
            <source>none</source>
            <translation>なし</translation>
        </message>
        <message>
            <source>Gold answer: %1 · best path&apos;s answer: %2 (value %3) · best found %4 · c_puct %5 · γ %6 · %7 nodes, depth %8</source>
            <translation>正解: %1 · 最多訪問経路の回答: %2 (価値 %3) · 最良の発見 %4 · c_puct %5 · γ %6 · %7 ノード、深さ %8</translation>
        </message>
        <message numerus="yes">
            <source>%n file(s) could not be read and are not listed: %1</source>
            <translation>
                <numerusform>%n 個のファイルを読み込めず、一覧にありません: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n match(es)</source>
            <translation>
                <numerusform>%n 件一致</numerusform>
            </translation>
        </message>
        <message>
            <source>match %1 of %2</source>
            <translation>%2 件中 %1 件目</translation>
        </message>
        <message>
            <source>Export the tree</source>
            <translation>木をエクスポート</translation>
        </message>
        <message>
            <source>SVG images (*.svg)</source>
            <translation>SVG 画像 (*.svg)</translation>
        </message>
        <message>
            <source>PNG images (*.png)</source>
            <translation>PNG 画像 (*.png)</translation>
        </message>
        <message>
            <source>PRM: %1</source>
            <translation>PRM: %1</translation>
        </message>
        <message>
            <source>PRM scores…</source>
            <translation>PRM スコア…</translation>
        </message>
        <message>
            <source>Score every step with a process reward model (rwb prm train&apos;s folder): R beside Q in the node and the siblings. Click again to choose another, or cancel to turn it off.</source>
            <translation>プロセス報酬モデル(rwb prm train のフォルダ)で各ステップを採点し、ノードと兄弟ステップに Q と並べて R を表示します。もう一度クリックすると別のモデルを選べ、キャンセルすると表示をやめます。</translation>
        </message>
        <message>
            <source>A process reward model&apos;s folder</source>
            <translation>プロセス報酬モデルのフォルダ</translation>
        </message>
        <message>
            <source>Cannot load the process reward model: %1</source>
            <translation>プロセス報酬モデルを読み込めません: %1</translation>
        </message>
        <message>
            <source>The process reward model could not score this tree: %1</source>
            <translation>プロセス報酬モデルでこの木を採点できませんでした: %1</translation>
        </message>
        <message>
            <source>Start a search from &lt;b&gt;Jobs ▸ MCTS search…&lt;/b&gt;: this window follows it as it grows. Or run &lt;code&gt;rwb mcts run --config mcts.json&lt;/code&gt; (docs/mcts.md) and open its run store (File ▸ Open run store…, or &lt;code&gt;reward-workbench --mcts runs.sqlite&lt;/code&gt;) or a tree record (File ▸ Open a search tree record…).</source>
            <translation>&lt;b&gt;ジョブ ▸ MCTS 探索…&lt;/b&gt;から探索を始めると、このウィンドウが育つ木を追います。あるいは &lt;code&gt;rwb mcts run --config mcts.json&lt;/code&gt;(docs/mcts.md)を実行し、そのランストア(ファイル ▸ ランストアを開く…、または &lt;code&gt;reward-workbench --mcts runs.sqlite&lt;/code&gt;)か木の記録(ファイル ▸ 探索木の記録を開く…)を開いてください。</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::AgreementMatrixModel</name>
        <message>
            <source>people (majority)</source>
            <translation>人間(多数決)</translation>
        </message>
        <message>
            <source>tree</source>
            <translation>木</translation>
        </message>
        <message>
            <source>judge: %1</source>
            <translation>ジャッジ: %1</translation>
        </message>
        <message>
            <source>import: %1</source>
            <translation>インポート: %1</translation>
        </message>
        <message numerus="yes">
            <source>%n pair(s)</source>
            <translation>
                <numerusform>%n ペア</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 % · κ %2
%n pair(s)</source>
            <translation>
                <numerusform>%1 % · κ %2
%n ペア</numerusform>
            </translation>
        </message>
        <message>
            <source>No pair labelled by both.</source>
            <translation>両者がラベル付けしたペアはありません。</translation>
        </message>
        <message>
            <source>%1 and %2 both labelled %3 pair(s) and gave the same label on %4 (%5 %); Cohen&apos;s κ %6. Click to show the pairs they disagree on.</source>
            <translation>%1 と %2 が共にラベル付けしたペアは %3 件、同じラベルは %4 件(%5 %)、Cohen の κ は %6 です。クリックすると意見が分かれたペアを表示します。</translation>
        </message>
        <message>
            <source>undefined</source>
            <translation>定義されない</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::PairQueueModel</name>
        <message>
            <source>A</source>
            <translation>A</translation>
        </message>
        <message>
            <source>B</source>
            <translation>B</translation>
        </message>
        <message>
            <source>tie</source>
            <translation>引き分け</translation>
        </message>
        <message>
            <source>skip</source>
            <translation>スキップ</translation>
        </message>
        <message>
            <source>split</source>
            <translation>割れ</translation>
        </message>
        <message>
            <source>disagree</source>
            <translation>不一致</translation>
        </message>
        <message>
            <source>agree</source>
            <translation>一致</translation>
        </message>
        <message>
            <source>Pair</source>
            <translation>ペア</translation>
        </message>
        <message>
            <source>Question</source>
            <translation>質問</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>Tree</source>
            <translation>木</translation>
        </message>
        <message>
            <source>Judge</source>
            <translation>ジャッジ</translation>
        </message>
        <message>
            <source>You</source>
            <translation>あなた</translation>
        </message>
        <message>
            <source>People</source>
            <translation>人数</translation>
        </message>
        <message>
            <source>Labels</source>
            <translation>ラベル</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::PreferenceAnnotator</name>
        <message>
            <source>Change…</source>
            <translation>変更…</translation>
        </message>
        <message>
            <source>All pairs</source>
            <translation>すべてのペア</translation>
        </message>
        <message>
            <source>Unlabelled by you</source>
            <translation>自分が未ラベル</translation>
        </message>
        <message>
            <source>Disagreements</source>
            <translation>意見の不一致</translation>
        </message>
        <message>
            <source>Filter by question</source>
            <translation>質問で絞り込み</translation>
        </message>
        <message>
            <source>Clear</source>
            <translation>解除</translation>
        </message>
        <message>
            <source>Reason (optional; R to type, Enter to go back to the keys)</source>
            <translation>理由(任意。R で入力、Enter でキー操作に戻る)</translation>
        </message>
        <message>
            <source>A is better (A)</source>
            <translation>A が良い (A)</translation>
        </message>
        <message>
            <source>B is better (B)</source>
            <translation>B が良い (B)</translation>
        </message>
        <message>
            <source>Tie (T)</source>
            <translation>引き分け (T)</translation>
        </message>
        <message>
            <source>Skip (S)</source>
            <translation>スキップ (S)</translation>
        </message>
        <message>
            <source>Undo (U)</source>
            <translation>元に戻す (U)</translation>
        </message>
        <message>
            <source>← Previous</source>
            <translation>← 前へ</translation>
        </message>
        <message>
            <source>Next →</source>
            <translation>次へ →</translation>
        </message>
        <message>
            <source>Which step is the better next step for answering the question, given the history? Judge the reasoning, not the length. Marked characters differ between the two steps.</source>
            <translation>履歴を踏まえて、質問に答えるための次のステップとしてどちらが良いですか。長さではなく推論で判断してください。色付きの文字は 2 つのステップで異なる部分です。</translation>
        </message>
        <message>
            <source>Agreement</source>
            <translation>一致度</translation>
        </message>
        <message>
            <source>Guidelines</source>
            <translation>ガイドライン</translation>
        </message>
        <message>
            <source>Each cell: the share of the pairs both raters labelled with the same label, Cohen&apos;s κ and the pairs. Click a cell to list the pairs those two disagree on.</source>
            <translation>各セル: 両評価者がラベル付けしたペアのうち同じラベルの割合、Cohen の κ、ペア数。セルをクリックすると、その 2 者の意見が分かれたペアを一覧します。</translation>
        </message>
        <message>
            <source>Save guidelines</source>
            <translation>ガイドラインを保存</translation>
        </message>
        <message>
            <source>%1 has no preference pairs yet (rwb prm pairs makes them from a tree search run).</source>
            <translation>%1 にはまだ選好ペアがありません(rwb prm pairs が木探索の実行から作ります)。</translation>
        </message>
        <message>
            <source>%1 has no pair set &quot;%2&quot;.</source>
            <translation>%1 にペアセット「%2」はありません。</translation>
        </message>
        <message>
            <source>Annotator</source>
            <translation>注釈者</translation>
        </message>
        <message>
            <source>Your name (your labels are stored under it, beside other people&apos;s):</source>
            <translation>あなたの名前(ラベルはこの名前で、他の人のラベルとは別に保存されます):</translation>
        </message>
        <message>
            <source>Preference pairs</source>
            <translation>選好ペア</translation>
        </message>
        <message>
            <source>Preference pairs — %1</source>
            <translation>選好ペア — %1</translation>
        </message>
        <message>
            <source>Annotator: (none chosen)</source>
            <translation>注釈者: (未選択)</translation>
        </message>
        <message>
            <source>Annotator: %1</source>
            <translation>注釈者: %1</translation>
        </message>
        <message>
            <source>Open a run store&apos;s pair set to annotate it.</source>
            <translation>注釈するには実行ストアのペアセットを開いてください。</translation>
        </message>
        <message>
            <source>No pair in the queue with these filters.</source>
            <translation>この絞り込みではキューにペアがありません。</translation>
        </message>
        <message>
            <source>Step A</source>
            <translation>ステップ A</translation>
        </message>
        <message>
            <source>Step B</source>
            <translation>ステップ B</translation>
        </message>
        <message>
            <source>History</source>
            <translation>履歴</translation>
        </message>
        <message>
            <source>Pair %1 · question %2: %3</source>
            <translation>ペア %1 · 質問 %2: %3</translation>
        </message>
        <message numerus="yes">
            <source>History: %n step(s) before</source>
            <translation>
                <numerusform>履歴: 先行する %n ステップ</numerusform>
            </translation>
        </message>
        <message>
            <source>Step %1</source>
            <translation>ステップ %1</translation>
        </message>
        <message>
            <source>None: the steps compared are the first.</source>
            <translation>なし: 比較するのは最初のステップです。</translation>
        </message>
        <message>
            <source>Q %1, N %2 in the tree</source>
            <translation>木での Q %1、N %2</translation>
        </message>
        <message>
            <source>your choice</source>
            <translation>あなたの選択</translation>
        </message>
        <message>
            <source>you</source>
            <translation>あなた</translation>
        </message>
        <message>
            <source>No label yet.</source>
            <translation>まだラベルはありません。</translation>
        </message>
        <message>
            <source>Labels: %1</source>
            <translation>ラベル: %1</translation>
        </message>
        <message numerus="yes">
            <source>%n pair(s)</source>
            <translation>
                <numerusform>%n ペア</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 of %2 labelled by you</source>
            <translation>%2 件中 %1 件をラベル付け済み</translation>
        </message>
        <message>
            <source>Krippendorff&apos;s α: among the people %1 (%2 pairs labelled by two or more), among every rater %3 (%4 pairs).</source>
            <translation>Krippendorff の α: 人間同士 %1(2 人以上がラベル付けした %2 ペア)、全評価者 %3(%4 ペア)。</translation>
        </message>
        <message>
            <source>The label was not saved: %1</source>
            <translation>ラベルは保存されませんでした: %1</translation>
        </message>
        <message>
            <source>Choose your name first: labels are stored under it.</source>
            <translation>先に名前を選んでください。ラベルはその名前で保存されます。</translation>
        </message>
        <message>
            <source>The label could not be undone: %1</source>
            <translation>ラベルを元に戻せませんでした: %1</translation>
        </message>
        <message>
            <source>Pairs where %1 and %2 disagree</source>
            <translation>%1 と %2 の意見が分かれたペア</translation>
        </message>
        <message>
            <source>From %1</source>
            <translation>%1 から</translation>
        </message>
        <message>
            <source># Guidelines for step preferences

Prefer the step that moves the answer forward correctly given the history:

- The sub-query asks for what the question needs next (the right entity and relation).
- The sub-answer says what the retrieved passages say — a name or number that is not in them is an error, however plausible.
- A final answer must follow from what was found.
- Length and wording do not matter; correctness does.

Tie: both steps are equally right or equally wrong. Skip: you cannot tell without more context.
</source>
            <translation># ステップ選好のガイドライン

履歴を踏まえて、答えに正しく近づくステップを選んでください:

- サブクエリは、質問が次に必要とするもの(正しい実体と関係)を尋ねている。
- サブアンサーは検索された文書に書かれていることを述べている。文書にない名前や数字は、もっともらしくても誤り。
- 最終回答は見つかった内容から導かれている。
- 長さや言い回しではなく、正しさで判断する。

引き分け: 両方が同じように正しい、または同じように誤っている。スキップ: もっと文脈がないと判断できない。
</translation>
        </message>
        <message>
            <source>Not saved yet: Save writes %1</source>
            <translation>未保存: 保存すると %1 に書き込みます</translation>
        </message>
        <message>
            <source>The guidelines were not saved to %1: %2</source>
            <translation>ガイドラインを %1 に保存できませんでした: %2</translation>
        </message>
        <message>
            <source>Saved to %1</source>
            <translation>%1 に保存しました</translation>
        </message>
        <message>
            <source>Opened read-only, labels cannot be saved: %1</source>
            <translation>読み取り専用で開きました。ラベルは保存できません: %1</translation>
        </message>
    </context>
    <context>
        <name>TaskPresenter</name>
        <message>
            <source>Prompt</source>
            <translation>プロンプト</translation>
        </message>
        <message>
            <source>Columns</source>
            <translation>列</translation>
        </message>
        <message>
            <source>Why %1 gave no value</source>
            <translation>%1 が値を返さなかった理由</translation>
        </message>
        <message>
            <source>grader failure (no reward)</source>
            <translation>採点の失敗（報酬なし）</translation>
        </message>
        <message>
            <source>The grader gave no reward (a judge that failed or timed out, a Python reward that raised or timed out, a remote reward that failed): the policy&apos;s answer was not judged.</source>
            <translation>採点器が報酬を返しませんでした（ジャッジの失敗やタイムアウト、Python 報酬の例外やタイムアウト、リモート報酬の失敗）。方策の答えは採点されていません。</translation>
        </message>
    </context>
    <context>
        <name>NewTaskDialog</name>
        <message>
            <source>"%1" is the name of a built-in task: give yours another.</source>
            <translation>「%1」は組み込みタスクの名前です。別の名前を付けてください。</translation>
        </message>
        <message>
            <source>%1 and %2, in %3</source>
            <translation>%3 に %1 と %2</translation>
        </message>
        <message>
            <source>%1 cannot be written: %2</source>
            <translation>%1 に書き込めません: %2</translation>
        </message>
        <message>
            <source>(choose a data file and a name)</source>
            <translation>（データファイルと名前を選んでください）</translation>
        </message>
        <message>
            <source>&lt;b&gt;Preview&lt;/b&gt;: the first records as the model will see them</source>
            <translation>&lt;b&gt;プレビュー&lt;/b&gt;: 先頭のレコードをモデルが見るとおりに表示</translation>
        </message>
        <message>
            <source>&lt;b&gt;Task description&lt;/b&gt; (JSON; // comments are kept)</source>
            <translation>&lt;b&gt;タスク記述&lt;/b&gt;（JSON。// コメントはそのまま保存）</translation>
        </message>
        <message>
            <source>&lt;b&gt;The draft&apos;s guesses&lt;/b&gt;</source>
            <translation>&lt;b&gt;下書きの推測&lt;/b&gt;</translation>
        </message>
        <message>
            <source>A new draft guessed from the data file, replacing the text</source>
            <translation>データファイルから推測した新しい下書きで本文を置き換えます</translation>
        </message>
        <message>
            <source>A record does not read: %1</source>
            <translation>読めないレコードがあります: %1</translation>
        </message>
        <message numerus="yes">
            <source>All %n record(s) of the file read with this description.</source>
            <translation>
                <numerusform>ファイルの全 %n 件のレコードをこの記述で読めました。</numerusform>
            </translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>参照…</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>キャンセル</translation>
        </message>
        <message>
            <source>Choose a data file: your records, one JSON object a line (JSONL).</source>
            <translation>データファイルを選んでください: 1 行に 1 つの JSON オブジェクトのレコード（JSONL）。</translation>
        </message>
        <message>
            <source>Choose a model folder</source>
            <translation>モデルフォルダーを選択</translation>
        </message>
        <message>
            <source>Choose the data file</source>
            <translation>データファイルを選択</translation>
        </message>
        <message>
            <source>Create</source>
            <translation>作成</translation>
        </message>
        <message>
            <source>Creates:</source>
            <translation>作成するファイル:</translation>
        </message>
        <message>
            <source>Data file:</source>
            <translation>データファイル:</translation>
        </message>
        <message>
            <source>Draft again</source>
            <translation>下書きし直す</translation>
        </message>
        <message>
            <source>Give the task a name: lower-case letters, digits and "_", starting with a letter.</source>
            <translation>タスクに名前を付けてください: 英小文字・数字・「_」で、英字で始まる名前。</translation>
        </message>
        <message>
            <source>JSON lines (*.jsonl);;All files (*)</source>
            <translation>JSON Lines (*.jsonl);;すべてのファイル (*)</translation>
        </message>
        <message>
            <source>Line %1 of the data file does not read.</source>
            <translation>データファイルの %1 行目が読めません。</translation>
        </message>
        <message>
            <source>Model folder:</source>
            <translation>モデルフォルダー:</translation>
        </message>
        <message>
            <source>New task from data</source>
            <translation>データから新しいタスク</translation>
        </message>
        <message>
            <source>None yet: choose a data file.</source>
            <translation>まだありません: データファイルを選んでください。</translation>
        </message>
        <message>
            <source>Overwrite %1?</source>
            <translation>%1 を上書きしますか？</translation>
        </message>
        <message>
            <source>Overwrite files?</source>
            <translation>ファイルを上書きしますか？</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>プロンプト</translation>
        </message>
        <message>
            <source>Prompt format: ChatML (the model folder&apos;s)</source>
            <translation>プロンプト形式: ChatML（モデルフォルダーの指定）</translation>
        </message>
        <message>
            <source>Prompt format: ChatML, Qwen3 without thinking (the model folder&apos;s)</source>
            <translation>プロンプト形式: ChatML、Qwen3 の思考なし（モデルフォルダーの指定）</translation>
        </message>
        <message>
            <source>Prompt format: plain (no model folder)</source>
            <translation>プロンプト形式: プレーン（モデルフォルダーなし）</translation>
        </message>
        <message>
            <source>Prompt format: plain (the model folder&apos;s)</source>
            <translation>プロンプト形式: プレーン（モデルフォルダーの指定）</translation>
        </message>
        <message>
            <source>Record %1 · line %2</source>
            <translation>レコード %1 · %2 行目</translation>
        </message>
        <message>
            <source>Records:</source>
            <translation>レコード数:</translation>
        </message>
        <message>
            <source>Reference</source>
            <translation>参照回答</translation>
        </message>
        <message>
            <source>Replace your edits to the description with a new draft from %1?</source>
            <translation>記述への編集を破棄し、%1 からの新しい下書きに置き換えますか？</translation>
        </message>
        <message>
            <source>SFT target</source>
            <translation>SFT の目標出力</translation>
        </message>
        <message>
            <source>Task name:</source>
            <translation>タスク名:</translation>
        </message>
        <message>
            <source>The answer the description&apos;s extractor finds in it:</source>
            <translation>記述の抽出方法がここから取り出す回答:</translation>
        </message>
        <message>
            <source>The data file does not read: %1</source>
            <translation>データファイルが読めません: %1</translation>
        </message>
        <message>
            <source>The description does not read: %1</source>
            <translation>記述が読めません: %1</translation>
        </message>
        <message>
            <source>The description&apos;s "name" is "%1", the task&apos;s name "%2": make them the same.</source>
            <translation>記述の "name" は「%1」、タスク名は「%2」です。同じにしてください。</translation>
        </message>
        <message>
            <source>The description&apos;s extractor finds no answer in it: a model trained on these targets would give none either.</source>
            <translation>記述の抽出方法はここから回答を取り出せません。この目標出力で学習したモデルの返答からも取り出せません。</translation>
        </message>
        <message numerus="yes">
            <source>The first %n records read with this description (rwb task check reads them all).</source>
            <translation>
                <numerusform>先頭の %n 件のレコードをこの記述で読めました（rwb task check ですべて読めます）。</numerusform>
            </translation>
        </message>
        <message>
            <source>The folder %1 cannot be made.</source>
            <translation>フォルダー %1 を作成できません。</translation>
        </message>
        <message>
            <source>The model folder does not load (%1); the preview uses the plain prompt format.</source>
            <translation>モデルフォルダーを読み込めません（%1）。プレビューはプレーンのプロンプト形式で表示します。</translation>
        </message>
        <message>
            <source>The name "%1" is not lower-case letters, digits and "_" starting with a letter.</source>
            <translation>名前「%1」は、英字で始まる英小文字・数字・「_」の並びではありません。</translation>
        </message>
        <message>
            <source>lower-case letters, digits and "_", starting with a letter</source>
            <translation>英小文字・数字・「_」、英字で始まる</translation>
        </message>
        <message>
            <source>optional: the preview then uses the model&apos;s prompt format</source>
            <translation>任意: 指定するとプレビューはそのモデルのプロンプト形式になります</translation>
        </message>
        <message>
            <source>your records, one JSON object a line (JSONL)</source>
            <translation>レコード: 1 行に 1 つの JSON オブジェクト（JSONL）</translation>
        </message>
        <message>
            <source>Close without creating the task? Your edits to the description are lost.</source>
            <translation>タスクを作成せずに閉じますか？記述への編集は失われます。</translation>
        </message>
        <message>
            <source>Records: verl&apos;s (a "reward_model" column); the reference is reward_model.ground_truth.</source>
            <translation>レコード: verl 形式 ("reward_model" 列あり)。参照は reward_model.ground_truth です。</translation>
        </message>
        <message>
            <source>Records: TRL&apos;s (a "prompt" column).</source>
            <translation>レコード: TRL 形式 ("prompt" 列あり)。</translation>
        </message>
        <message>
            <source>Records: OpenRLHF&apos;s (an "input" column).</source>
            <translation>レコード: OpenRLHF 形式 ("input" 列あり)。</translation>
        </message>
        <message>
            <source>Records: no prompt column TRL, verl or OpenRLHF would read; the prompt is guessed to be "%1" (the first text column): check it.</source>
            <translation>レコード: TRL・verl・OpenRLHF が読むプロンプト列がありません。プロンプトは "%1" (最初のテキスト列) と推定しました。確認してください。</translation>
        </message>
        <message>
            <source>Reference: guessed to be "%1"; check it.</source>
            <translation>参照: "%1" と推定しました。確認してください。</translation>
        </message>
        <message>
            <source>Answer: every reference is a number, so the answer is the reply&apos;s last \boxed{}, compared as a number.</source>
            <translation>答え: 参照がすべて数値なので、応答の最後の \boxed{} を答えとし、数値として比較します。</translation>
        </message>
        <message>
            <source>Answer: every reference is a JSON object, so the reply&apos;s object is compared field by field.</source>
            <translation>答え: 参照がすべて JSON オブジェクトなので、応答のオブジェクトをフィールドごとに比較します。</translation>
        </message>
        <message>
            <source>Answer: the references are text, so the whole reply is compared with the reference (exact_match).</source>
            <translation>答え: 参照がテキストなので、応答全体を参照と比較します (exact_match)。</translation>
        </message>
    </context>
    <context>
        <name>HelpActions</name>
        <message>
            <source>Help</source>
            <translation>ヘルプ</translation>
        </message>
        <message>
            <source>&amp;User guide</source>
            <translation>ユーザーガイド(&amp;U)</translation>
        </message>
        <message>
            <source>The workbench&apos;s guide (docs/guide.md)</source>
            <translation>ワークベンチのガイド（docs/guide.md）</translation>
        </message>
        <message>
            <source>&amp;CLI reference</source>
            <translation>CLI リファレンス(&amp;C)</translation>
        </message>
        <message>
            <source>Every rwb command and its options (docs/cli.md)</source>
            <translation>rwb の全コマンドとそのオプション（docs/cli.md）</translation>
        </message>
        <message>
            <source>Reward Workbench documentation</source>
            <translation>Reward Workbench ドキュメント</translation>
        </message>
        <message>
            <source>The documentation page %1 was not found. Looked in:
%2

Set RWB_DOCS_DIR to the docs folder of a checkout.</source>
            <translation>ドキュメントのページ %1 が見つかりません。探した場所:
%2

RWB_DOCS_DIR にチェックアウトの docs フォルダを設定してください。</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RescoreButton</name>
        <message>
            <source>Re-score…</source>
            <translation>再採点…</translation>
        </message>
        <message>
            <source>What if: score these rollouts again with the Designer&apos;s reward config and compare the advantages</source>
            <translation>もしも: これらのロールアウトをデザイナーの報酬設定で採点し直し、アドバンテージを比べます</translation>
        </message>
        <message>
            <source>Re-score the filtered rollouts with the Designer&apos;s config…</source>
            <translation>フィルタ後のロールアウトをデザイナーの設定で再採点…</translation>
        </message>
        <message>
            <source>Re-score the current rollout&apos;s group with the Designer&apos;s config…</source>
            <translation>現在のロールアウトのグループをデザイナーの設定で再採点…</translation>
        </message>
        <message>
            <source>Re-score the current rollout&apos;s step with the Designer&apos;s config…</source>
            <translation>現在のロールアウトのステップをデザイナーの設定で再採点…</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RescoreTableModel</name>
        <message>
            <source>flips</source>
            <translation>反転</translation>
        </message>
        <message>
            <source>Recomputed from the stored totals with the run&apos;s advantage settings (stored: %1)</source>
            <translation>保存された合計から実行のアドバンテージ設定で再計算（保存値: %1）</translation>
        </message>
        <message>
            <source>★ before the arrow: among the group&apos;s best by stored total; after it: its best by new total</source>
            <translation>矢印の前の★: 保存された合計でグループ最良の一つ。後の★: 新しい合計でのグループ最良</translation>
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
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>Stored total</source>
            <translation>保存された合計</translation>
        </message>
        <message>
            <source>New total</source>
            <translation>新しい合計</translation>
        </message>
        <message>
            <source>Old advantage</source>
            <translation>旧アドバンテージ</translation>
        </message>
        <message>
            <source>New advantage</source>
            <translation>新アドバンテージ</translation>
        </message>
        <message>
            <source>Sign</source>
            <translation>符号</translation>
        </message>
        <message>
            <source>Best</source>
            <translation>最良</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>エラー</translation>
        </message>
        <message>
            <source>%1 (stored)</source>
            <translation>%1（保存）</translation>
        </message>
        <message>
            <source>%1 (new)</source>
            <translation>%1（新）</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RescoreGroupModel</name>
        <message>
            <source>%1 (changed)</source>
            <translation>%1（変化）</translation>
        </message>
        <message>
            <source>A rollout of this group could not be re-scored: no new advantages</source>
            <translation>このグループのロールアウトを再採点できなかったため、新しいアドバンテージはありません</translation>
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
            <source>Rollouts</source>
            <translation>ロールアウト</translation>
        </message>
        <message>
            <source>Stored mean</source>
            <translation>保存された平均</translation>
        </message>
        <message>
            <source>New mean</source>
            <translation>新しい平均</translation>
        </message>
        <message>
            <source>Best before</source>
            <translation>変更前の最良</translation>
        </message>
        <message>
            <source>Best after</source>
            <translation>変更後の最良</translation>
        </message>
        <message>
            <source>Sign flips</source>
            <translation>符号反転</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RescoreView</name>
        <message>
            <source>Cancelled: nothing was re-scored.</source>
            <translation>キャンセルしました。何も再採点していません。</translation>
        </message>
        <message>
            <source>The re-score failed: %1</source>
            <translation>再採点に失敗しました: %1</translation>
        </message>
        <message>
            <source>The re-score could not be saved: %1</source>
            <translation>再採点を保存できませんでした: %1</translation>
        </message>
        <message>
            <source>Saved as evaluation run %1 “%2” of this store.</source>
            <translation>このストアの評価実行 %1「%2」として保存しました。</translation>
        </message>
        <message>
            <source>What-if re-score</source>
            <translation>もしもの再採点</translation>
        </message>
        <message>
            <source>the Designer&apos;s reward config</source>
            <translation>デザイナーの報酬設定</translation>
        </message>
        <message>
            <source>Run %1, %2, re-scored with %3</source>
            <translation>実行 %1、%2 を %3 で再採点</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>キャンセル</translation>
        </message>
        <message>
            <source>Save as evaluation</source>
            <translation>評価として保存</translation>
        </message>
        <message>
            <source>Store the new scores as an evaluation run of this store; the run itself is not changed</source>
            <translation>新しい採点をこのストアの評価実行として保存します。実行そのものは変わりません</translation>
        </message>
        <message>
            <source>Groups</source>
            <translation>グループ</translation>
        </message>
        <message>
            <source>Rollouts (a group&apos;s rows all come, whatever the scope asked for)</source>
            <translation>ロールアウト（範囲の指定にかかわらず、グループの行はすべて含まれます）</translation>
        </message>
        <message>
            <source>Advantages recomputed as the run computed them: scale_rewards = %1, none_rewards = %2, ε = %3.</source>
            <translation>アドバンテージは実行と同じ方法で再計算: scale_rewards = %1、none_rewards = %2、ε = %3。</translation>
        </message>
        <message>
            <source>The run&apos;s config names none of them: GRPO&apos;s defaults.</source>
            <translation>実行の設定にはどれも指定がないため、GRPO の既定値を使いました。</translation>
        </message>
        <message>
            <source>The batch std is the step&apos;s: whole steps were re-scored.</source>
            <translation>バッチの標準偏差はステップ全体のものなので、ステップ全体を再採点しました。</translation>
        </message>
        <message>
            <source>Dual-granularity run: the process advantages (β = %1) come from the PRM and do not change with the reward; the outcome advantages are compared.</source>
            <translation>二粒度の実行: プロセスアドバンテージ（β = %1）は PRM によるもので報酬では変わらないため、結果アドバンテージを比べています。</translation>
        </message>
        <message numerus="yes">
            <source>%n rollout(s) in %1 group(s): %2 re-scored, %3 skipped, %4 with a None total.</source>
            <translation>
                <numerusform>%1 グループの %n 件のロールアウト: 再採点 %2 件、スキップ %3 件、合計が None のもの %4 件。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The best completion changes in %1 of %2 group(s); %n advantage(s) flip sign.</source>
            <translation>
                <numerusform>%2 グループ中 %1 グループで最良の補完が変わり、%n 件のアドバンテージの符号が反転します。</numerusform>
            </translation>
        </message>
        <message>
            <source>Old against new advantage: Pearson %1, Spearman %2 (%3 rollouts).</source>
            <translation>旧と新のアドバンテージの相関: ピアソン %1、スピアマン %2（%3 件のロールアウト）。</translation>
        </message>
        <message>
            <source>Mean change of the total: %1.</source>
            <translation>合計の平均変化: %1。</translation>
        </message>
        <message>
            <source>Re-scoring…</source>
            <translation>再採点中…</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::TourPanel</name>
        <message>
            <source>Show me</source>
            <translation>ここを表示</translation>
        </message>
        <message>
            <source>Bring this part of the window to the front and outline it</source>
            <translation>ウィンドウのこの部分を前面に出し、枠で囲んで示します</translation>
        </message>
        <message>
            <source>Back</source>
            <translation>戻る</translation>
        </message>
        <message>
            <source>Don&apos;t show again</source>
            <translation>次回から表示しない</translation>
        </message>
        <message>
            <source>Do not open the tour at start; Help ▸ Guided tour still opens it</source>
            <translation>起動時にツアーを開きません（ヘルプ ▸ ガイドツアーからはいつでも開けます）</translation>
        </message>
        <message>
            <source>Close the tour (Help ▸ Guided tour opens it again)</source>
            <translation>ツアーを閉じる（ヘルプ ▸ ガイドツアーで再び開けます）</translation>
        </message>
        <message>
            <source>Guided tour %1 / %2</source>
            <translation>ガイドツアー %1 / %2</translation>
        </message>
        <message>
            <source>Finish</source>
            <translation>終了</translation>
        </message>
        <message>
            <source>Next</source>
            <translation>次へ</translation>
        </message>
    </context>
    <context>
        <name>GuidedTour</name>
        <message>
            <source>&amp;Guided tour</source>
            <translation>ガイドツアー(&amp;G)</translation>
        </message>
        <message>
            <source>Where each part of the workbench lives, one step at a time</source>
            <translation>ワークベンチの各部分の場所を一つずつ案内します</translation>
        </message>
        <message>
            <source>Reward Designer</source>
            <translation>報酬デザイナー</translation>
        </message>
        <message>
            <source>Compose the reward from components and their weights in the %1 dock; the %2 tab shows what each component gives on real samples, and why. While a run trains, “Apply to the run…” there changes its weights from its next step.</source>
            <translation>「%1」ドックで、報酬をコンポーネントとその重みから組み立てます。「%2」タブには、実際のサンプルで各コンポーネントが与える値とその理由が表示されます。学習中は、ドックの「実行に適用…」で次のステップから実行の重みを変えられます。</translation>
        </message>
        <message>
            <source>Training setup and starting a run</source>
            <translation>学習の設定と実行の開始</translation>
        </message>
        <message>
            <source>The %1 dock holds the GRPO run&apos;s model, data and settings. %2 (in the %3 menu and on the toolbar) begins the run; Pause, Resume and Stop steer it.</source>
            <translation>「%1」ドックで GRPO の実行のモデル、データ、設定を決めます。「%2」（「%3」メニューとツールバー）で実行が始まり、一時停止・再開・停止で操作します。</translation>
        </message>
        <message>
            <source>Curves</source>
            <translation>曲線</translation>
        </message>
        <message>
            <source>Reward ± std, components, KL, entropy, clipping, length and validation F1, live while a run trains. The metric picker on the left gives any metric of the store a plot of its own.</source>
            <translation>報酬 ± 標準偏差、コンポーネント、KL、エントロピー、クリッピング、長さ、検証 F1 を学習中にリアルタイムで表示します。左のメトリクス選択で、ストアのどのメトリクスにも専用のプロットを追加できます。</translation>
        </message>
        <message>
            <source>Group advantages</source>
            <translation>グループのアドバンテージ</translation>
        </message>
        <message>
            <source>Every group&apos;s rewards and advantages at each step: which completions GRPO pushed up and which down.</source>
            <translation>各ステップの全グループの報酬とアドバンテージ。GRPO がどの生成を押し上げ、どれを押し下げたかが分かります。</translation>
        </message>
        <message>
            <source>Rollout browser and what-if re-scoring</source>
            <translation>ロールアウトブラウザーともしもの再採点</translation>
        </message>
        <message>
            <source>Every rollout of the run, filtered by component conditions or full-text search. “Re-score…” scores them again with the Designer&apos;s current config and compares the advantages: what a change would do, before you train with it.</source>
            <translation>実行のすべてのロールアウトを、コンポーネントの条件や全文検索で絞り込めます。「再採点…」はデザイナーの現在の設定で採点し直してアドバンテージを比べます。変更の効果を、学習する前に確かめられます。</translation>
        </message>
        <message>
            <source>Failures</source>
            <translation>失敗の分析</translation>
        </message>
        <message>
            <source>An evaluated checkpoint&apos;s mistakes grouped by kind, and two checkpoints compared. Answers that no grader could judge (a judge or a reward that failed) have a category of their own: grader failure.</source>
            <translation>評価したチェックポイントの誤りを種類ごとにまとめ、2 つのチェックポイントを比べます。採点できなかった回答（失敗した審査モデルや報酬）は、専用のカテゴリ「採点の失敗」に入ります。</translation>
        </message>
        <message>
            <source>Judge decisions</source>
            <translation>審査モデルの判定</translation>
        </message>
        <message>
            <source>Every call of an LLM judge: its prompt, reply and verdict, beside the reference grader&apos;s.</source>
            <translation>LLM 審査モデルの呼び出しごとのプロンプト、応答、判定を、参照採点器の判定と並べて表示します。</translation>
        </message>
        <message>
            <source>Tokens</source>
            <translation>トークン</translation>
        </message>
        <message>
            <source>The %1 dock colours the selected rollout&apos;s tokens by advantage, ratio or entropy.</source>
            <translation>「%1」ドックは、選んだロールアウトのトークンをアドバンテージ、比率、エントロピーで色分けします。</translation>
        </message>
        <message>
            <source>Search trees</source>
            <translation>探索木</translation>
        </message>
        <message>
            <source>%1 opens the MCTS tree viewer, which replays a tree search iteration by iteration.</source>
            <translation>「%1」で MCTS の木ビューアーが開き、木探索を反復ごとに再生できます。</translation>
        </message>
        <message>
            <source>Preference annotator</source>
            <translation>選好ペアの注釈</translation>
        </message>
        <message>
            <source>%1 labels sibling steps of the search trees for a process reward model, from the keyboard, with the agreement between raters.</source>
            <translation>「%1」では、探索木の兄弟ステップにプロセス報酬モデル用のラベルをキーボードで付け、評価者間の一致度も確かめられます。</translation>
        </message>
        <message>
            <source>Runs</source>
            <translation>実行</translation>
        </message>
        <message>
            <source>The %1 dock lists the workspace&apos;s runs: double-click one to show it in every view; its context menu overlays it on the curves or resumes it.</source>
            <translation>「%1」ドックにはワークスペースの実行が並びます。ダブルクリックするとすべてのビューに表示し、コンテキストメニューで曲線に重ねたり再開したりできます。</translation>
        </message>
        <message>
            <source>User guide</source>
            <translation>ユーザーガイド</translation>
        </message>
        <message>
            <source>%1 (F1) explains every view in detail; %2 opens this tour again.</source>
            <translation>「%1」（F1）で各ビューの詳しい説明を読めます。「%2」でこのツアーをもう一度開けます。</translation>
        </message>
        <message>
            <source>Jobs</source>
            <translation>ジョブ</translation>
        </message>
        <message>
            <source>The %1 menu starts the MCTS search, preference pairs and their judge labels, PRM training, PRM-filtered fine-tuning, a judge&apos;s evaluation and imports, each from a form; the Jobs dock follows the one running (progress, time left, Cancel, curves, result). Synthetic data, SFT and evaluating a checkpoint are in the Training menu.</source>
            <translation>%1 メニューから MCTS 探索、選好ペアとジャッジのラベル、PRM の学習、PRM で選別したファインチューニング、ジャッジの評価、インポートをそれぞれフォームで始められます。ジョブ ドックが実行中のジョブを追います(進み具合、残り時間、取り消し、曲線、結果)。合成データ、SFT、チェックポイントの評価は学習メニューにあります。</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RunTableView</name>
        <message>
            <source>Rename run</source>
            <translation>実行の名前を変更</translation>
        </message>
        <message>
            <source>Edit tags</source>
            <translation>タグを編集</translation>
        </message>
        <message>
            <source>Tags of run %1 “%2”, separated by commas:</source>
            <translation>実行 %1「%2」のタグ（カンマ区切り）:</translation>
        </message>
        <message>
            <source>Delete run</source>
            <translation>実行を削除</translation>
        </message>
        <message>
            <source>Run %1 “%2” is being trained in this window: stop the training before deleting it.</source>
            <translation>実行 %1「%2」はこのウィンドウで学習中です。削除する前に学習を停止してください。</translation>
        </message>
        <message>
            <source>Run %1 was not deleted: %2</source>
            <translation>実行 %1 を削除できませんでした: %2</translation>
        </message>
        <message numerus="yes">
            <source>Run %1 “%2” is marked running and last wrote %n minute(s) ago: a trainer may still be writing it. Stop it first. A run whose process was killed can be deleted once it has written nothing for an hour.</source>
            <translation>
                <numerusform>実行 %1「%2」は実行中と記録されており、最後の書き込みは %n 分前です。まだトレーナーが書き込んでいるかもしれません。先に停止してください。プロセスが強制終了された実行は、1 時間書き込みがなければ削除できます。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n step(s) and their metrics</source>
            <translation>
                <numerusform>%n ステップとそのメトリクス</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n rollout(s)</source>
            <translation>
                <numerusform>%n 件のロールアウト</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n evaluation prediction(s)</source>
            <translation>
                <numerusform>%n 件の評価の予測</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n judge call(s)</source>
            <translation>
                <numerusform>%n 回の審査の呼び出し</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n search tree(s)</source>
            <translation>
                <numerusform>%n 本の探索木</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n checkpoint record(s) (the checkpoint folders on disk are kept)</source>
            <translation>
                <numerusform>%n 件のチェックポイントの記録（ディスク上のチェックポイントのフォルダーは残ります）</numerusform>
            </translation>
        </message>
        <message>
            <source>its config, reward configs and tags</source>
            <translation>設定、報酬設定、タグ</translation>
        </message>
        <message>
            <source>Delete run %1 “%2” from %3?</source>
            <translation>%3 から実行 %1「%2」を削除しますか？</translation>
        </message>
        <message>
            <source>This cannot be undone. Deleted with it:</source>
            <translation>元に戻せません。一緒に削除されるもの:</translation>
        </message>
        <message>
            <source>Compare configs</source>
            <translation>設定を比較</translation>
        </message>
        <message>
            <source>Select two runs to compare their configs.</source>
            <translation>設定を比較するには実行を 2 つ選んでください。</translation>
        </message>
        <message>
            <source>Filter by name, tag or kind</source>
            <translation>名前・タグ・種類で絞り込む</translation>
        </message>
        <message>
            <source>Shows the runs whose name, tags or kind contain every word typed.</source>
            <translation>入力したすべての語を名前・タグ・種類のどれかに含む実行を表示します。</translation>
        </message>
        <message>
            <source>Rename…</source>
            <translation>名前を変更…</translation>
        </message>
        <message>
            <source>Edit tags…</source>
            <translation>タグを編集…</translation>
        </message>
        <message>
            <source>Show config…</source>
            <translation>設定を表示…</translation>
        </message>
        <message>
            <source>Compare configs…</source>
            <translation>設定を比較…</translation>
        </message>
        <message>
            <source>Select two runs to compare their configs</source>
            <translation>設定を比較する実行を 2 つ選んでください</translation>
        </message>
        <message>
            <source>Delete…</source>
            <translation>削除…</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RunConfigDiffModel</name>
        <message>
            <source>(the whole config)</source>
            <translation>（設定全体）</translation>
        </message>
        <message>
            <source>(absent)</source>
            <translation>（なし）</translation>
        </message>
        <message>
            <source>This config has no such setting.</source>
            <translation>この設定にはこの項目がありません。</translation>
        </message>
        <message>
            <source>Setting</source>
            <translation>設定項目</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::RunConfigDialog</name>
        <message>
            <source>Show all settings</source>
            <translation>すべての設定項目を表示</translation>
        </message>
        <message>
            <source>Config of run %1</source>
            <translation>実行 %1 の設定</translation>
        </message>
        <message numerus="yes">
            <source>%n setting(s).</source>
            <translation>
                <numerusform>%n 件の設定項目。</numerusform>
            </translation>
        </message>
        <message>
            <source>Compare configs: %1 and %2</source>
            <translation>設定の比較: %1 と %2</translation>
        </message>
        <message numerus="yes">
            <source>The configs are the same (%n setting(s)).</source>
            <translation>
                <numerusform>設定は同じです（%n 件の設定項目）。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 of %n setting(s) differ.</source>
            <translation>
                <numerusform>%n 件の設定項目のうち %1 件が異なります。</numerusform>
            </translation>
        </message>
        <message>
            <source>The settings that differ are marked.</source>
            <translation>異なる設定項目に色を付けています。</translation>
        </message>
    </context>
    <context>
        <name>PrmJobs</name>
        <message>
            <source>Preference pairs and judge labels</source>
            <translation>選好ペアと審査モデルのラベル</translation>
        </message>
        <message>
            <source>Makes preference pairs of sibling steps from an MCTS run&apos;s trees, each with the tree&apos;s label (the step with the larger Q), as rwb prm pairs does; then, when a judge is chosen, labels them with it as rwb prm judge does (docs/prm.md). The annotation view opens on the set at the end.</source>
            <translation>rwb prm pairs と同じく、MCTS 実行の木の兄弟ステップから選好ペアを作り、それぞれに木のラベル(Q の大きい方のステップ)を付けます。審査モデルを選んだ場合は、続けて rwb prm judge と同じくそれでラベルを付けます(docs/prm.md)。終わるとそのセットで注釈ビューが開きます。</translation>
        </message>
        <message>
            <source>Pairs</source>
            <translation>ペア</translation>
        </message>
        <message>
            <source>Run store</source>
            <translation>実行ストア</translation>
        </message>
        <message>
            <source>The run store holding the MCTS run; the pairs and labels go into it</source>
            <translation>MCTS 実行を収めた実行ストア。ペアとラベルもここに書き込まれます</translation>
        </message>
        <message>
            <source>Run stores (*.sqlite)</source>
            <translation>実行ストア (*.sqlite)</translation>
        </message>
        <message>
            <source>MCTS run</source>
            <translation>MCTS 実行</translation>
        </message>
        <message>
            <source>The search whose trees give the pairs (Jobs ▸ MCTS search makes one)</source>
            <translation>ペアの元になる木を持つ探索(ジョブ ▸ MCTS 探索で作れます)</translation>
        </message>
        <message>
            <source>Pair set</source>
            <translation>ペアセット</translation>
        </message>
        <message>
            <source>The set&apos;s name (default "mcts run N"); running again adds only the pairs it lacks</source>
            <translation>セットの名前(既定は「mcts run N」)。もう一度実行すると、まだないペアだけが追加されます</translation>
        </message>
        <message>
            <source>Margin</source>
            <translation>マージン</translation>
        </message>
        <message>
            <source>The least difference of Q between the two steps of a pair</source>
            <translation>ペアの 2 つのステップの Q の差の最小値</translation>
        </message>
        <message>
            <source>Minimum visits</source>
            <translation>最小訪問回数</translation>
        </message>
        <message>
            <source>Both steps visited at least this often (an unvisited step&apos;s Q is no estimate)</source>
            <translation>両方のステップがこの回数以上訪問されていること(未訪問のステップの Q は推定値になりません)</translation>
        </message>
        <message>
            <source>Pairs per state</source>
            <translation>状態あたりのペア数</translation>
        </message>
        <message>
            <source>At most this many pairs under one state, the largest differences first</source>
            <translation>1 つの状態の下で作るペアの上限。差の大きいものから選びます</translation>
        </message>
        <message>
            <source>Seed</source>
            <translation>シード</translation>
        </message>
        <message>
            <source>Orders steps A and B (the better step is not always A)</source>
            <translation>ステップ A と B の並びを決めます(良い方が常に A とは限りません)</translation>
        </message>
        <message>
            <source>Judge labels</source>
            <translation>審査モデルのラベル</translation>
        </message>
        <message>
            <source>none</source>
            <translation>なし</translation>
        </message>
        <message>
            <source>the reference judge (gold chains)</source>
            <translation>参照審査モデル(正解の連鎖)</translation>
        </message>
        <message>
            <source>an LLM judge (a config file)</source>
            <translation>LLM 審査モデル(設定ファイル)</translation>
        </message>
        <message>
            <source>Judge</source>
            <translation>審査モデル</translation>
        </message>
        <message>
            <source>After the pairs: labels from a judge. The reference judge knows a synthetic question set&apos;s gold chains and stands in where no LLM judge can be reached</source>
            <translation>ペアの後に審査モデルがラベルを付けます。参照審査モデルは合成質問セットの正解の連鎖を知っており、LLM 審査モデルに接続できない環境での代わりになります</translation>
        </message>
        <message>
            <source>Questions with gold chains</source>
            <translation>正解の連鎖付きの質問</translation>
        </message>
        <message>
            <source>The question set the trees searched (rwb data synth --task multihop): the reference judge reads its gold chains</source>
            <translation>木が探索した質問セット(rwb data synth --task multihop)。参照審査モデルはその正解の連鎖を読みます</translation>
        </message>
        <message>
            <source>Question sets (*.jsonl)</source>
            <translation>質問セット (*.jsonl)</translation>
        </message>
        <message>
            <source>Judge config</source>
            <translation>審査モデルの設定</translation>
        </message>
        <message>
            <source>A judge object, or a reward config with "judge" (docs/judges.md): its model labels the pairs</source>
            <translation>審査モデルのオブジェクト、または "judge" を持つ報酬設定(docs/judges.md)。そのモデルがペアにラベルを付けます</translation>
        </message>
        <message>
            <source>Judge configs (*.json)</source>
            <translation>審査モデルの設定 (*.json)</translation>
        </message>
        <message>
            <source>Both orders</source>
            <translation>両方の順序</translation>
        </message>
        <message>
            <source>Ask twice, the steps swapped the second time; a verdict that follows the position becomes a tie</source>
            <translation>2 回尋ね、2 回目はステップを入れ替えます。位置に従っただけの判定は引き分けになります</translation>
        </message>
        <message>
            <source>Pairs to judge (0: all)</source>
            <translation>審査するペア数(0: すべて)</translation>
        </message>
        <message>
            <source>Judge only the first N pairs not judged yet</source>
            <translation>まだ審査していないペアのうち最初の N 個だけを審査します</translation>
        </message>
        <message>
            <source>Then: %1</source>
            <translation>続けて: %1</translation>
        </message>
        <message>
            <source>the store has no MCTS run (Jobs ▸ MCTS search makes one)</source>
            <translation>ストアに MCTS 実行がありません(ジョブ ▸ MCTS 探索で作れます)</translation>
        </message>
        <message>
            <source>choose an MCTS run</source>
            <translation>MCTS 実行を選んでください</translation>
        </message>
        <message>
            <source>not a JSON object (a reward config with "judge", or a judge object)</source>
            <translation>JSON オブジェクトではありません("judge" を持つ報酬設定、または審査モデルのオブジェクトが必要です)</translation>
        </message>
        <message>
            <source>a reward config without a "judge" object (docs/judges.md)</source>
            <translation>"judge" オブジェクトのない報酬設定です(docs/judges.md)</translation>
        </message>
        <message>
            <source>PRM training</source>
            <translation>PRM の学習</translation>
        </message>
        <message>
            <source>Trains the process reward model on a pair set&apos;s labels with eq. 4, as rwb prm train does (docs/prm.md): the SFT policy&apos;s decoder with a scalar head. The Jobs dock plots the loss and the held-out pairwise accuracy of each label source as it trains.</source>
            <translation>rwb prm train と同じく、ペアセットのラベルで過程報酬モデルを式 4 により学習します(docs/prm.md)。SFT 方策のデコーダーにスカラーのヘッドを付けたモデルです。学習中、ジョブドックに損失とラベルの出所ごとのホールドアウトでのペア正解率が描かれます。</translation>
        </message>
        <message>
            <source>Model and pairs</source>
            <translation>モデルとペア</translation>
        </message>
        <message>
            <source>Policy model</source>
            <translation>方策モデル</translation>
        </message>
        <message>
            <source>The SFT policy&apos;s folder whose decoder the PRM starts from (or a PRM folder to go on training)</source>
            <translation>PRM の出発点となるデコーダーを持つ SFT 方策のフォルダー(学習を続ける場合は PRM のフォルダー)</translation>
        </message>
        <message>
            <source>PRM folder</source>
            <translation>PRM のフォルダー</translation>
        </message>
        <message>
            <source>Where the PRM is written (a model folder with the head)</source>
            <translation>PRM の書き込み先(ヘッド付きのモデルフォルダー)</translation>
        </message>
        <message>
            <source>The run store holding the pair set</source>
            <translation>ペアセットを収めた実行ストア</translation>
        </message>
        <message>
            <source>The labelled pairs to train on (Jobs ▸ Preference pairs makes them)</source>
            <translation>学習に使うラベル付きのペア(ジョブ ▸ 選好ペアで作れます)</translation>
        </message>
        <message>
            <source>Labels</source>
            <translation>ラベル</translation>
        </message>
        <message>
            <source>Label sources</source>
            <translation>ラベルの出所</translation>
        </message>
        <message>
            <source>Each pair&apos;s label comes from the first of these that labelled it (people by majority): human, judge, tree, import</source>
            <translation>各ペアのラベルは、これらのうちそのペアにラベルを付けた最初のものから取ります(人は多数決): human, judge, tree, import</translation>
        </message>
        <message>
            <source>Weight of %1 labels</source>
            <translation>%1 のラベルの重み</translation>
        </message>
        <message>
            <source>How much a pair labelled by this source counts in the loss (0 leaves them out)</source>
            <translation>この出所がラベルを付けたペアが損失にどれだけ効くか(0 で除外)</translation>
        </message>
        <message>
            <source>Ties</source>
            <translation>引き分け</translation>
        </message>
        <message>
            <source>drop: a tie says nothing about which step is better; equal: pulls the two scores together</source>
            <translation>drop: 引き分けはどちらが良いかを何も語らないので除外。equal: 2 つのスコアを近づけます</translation>
        </message>
        <message>
            <source>Held-out questions</source>
            <translation>ホールドアウトする質問</translation>
        </message>
        <message>
            <source>The share of questions whose pairs are held out to measure pairwise accuracy</source>
            <translation>ペア正解率を測るためにペアを取り置く質問の割合</translation>
        </message>
        <message>
            <source>Training</source>
            <translation>学習</translation>
        </message>
        <message>
            <source>LoRA</source>
            <translation>LoRA</translation>
        </message>
        <message>
            <source>LoRA adapters on the decoder (merged when saved); the head trains in full</source>
            <translation>デコーダーに LoRA アダプターを付けます(保存時にマージ)。ヘッドは全体を学習します</translation>
        </message>
        <message>
            <source>Learning rate</source>
            <translation>学習率</translation>
        </message>
        <message>
            <source>AdamW&apos;s learning rate</source>
            <translation>AdamW の学習率</translation>
        </message>
        <message>
            <source>Epochs</source>
            <translation>エポック数</translation>
        </message>
        <message>
            <source>Passes over the training pairs</source>
            <translation>学習用ペアを通す回数</translation>
        </message>
        <message>
            <source>Batch size</source>
            <translation>バッチサイズ</translation>
        </message>
        <message>
            <source>Pairs per optimizer step (two sequences each)</source>
            <translation>最適化ステップあたりのペア数(それぞれ 2 系列)</translation>
        </message>
        <message>
            <source>Maximum length</source>
            <translation>最大長</translation>
        </message>
        <message>
            <source>Tokens of a step&apos;s whole input; longer pairs are skipped and counted</source>
            <translation>ステップの入力全体のトークン数。これより長いペアは飛ばして数えます</translation>
        </message>
        <message>
            <source>The head&apos;s start, the order of the pairs, the held-out split</source>
            <translation>ヘッドの初期値、ペアの順序、ホールドアウトの分割</translation>
        </message>
        <message>
            <source>Evaluate every (steps)</source>
            <translation>評価の間隔(ステップ)</translation>
        </message>
        <message>
            <source>Held-out accuracy every N optimizer steps and at the last (0: at each epoch&apos;s end); the default gives about ten points</source>
            <translation>N 最適化ステップごとと最後にホールドアウトでの正解率を測ります(0: 各エポックの終わり)。既定値ではおよそ 10 点になります</translation>
        </message>
        <message>
            <source>Threads (0: auto)</source>
            <translation>スレッド数(0: 自動)</translation>
        </message>
        <message>
            <source>libtorch&apos;s CPU threads</source>
            <translation>libtorch の CPU スレッド数</translation>
        </message>
        <message>
            <source>the store has no pair set (Jobs ▸ Preference pairs makes them)</source>
            <translation>ストアにペアセットがありません(ジョブ ▸ 選好ペアで作れます)</translation>
        </message>
        <message>
            <source>no pair set "%1" in the store</source>
            <translation>ストアにペアセット「%1」がありません</translation>
        </message>
        <message>
            <source>Held-out pairwise accuracy per label source (each source&apos;s own labels: the PRM scores the step the label prefers higher), before and after training</source>
            <translation>ラベルの出所ごとのホールドアウトでのペア正解率(各出所自身のラベルに対して、ラベルが良いとしたステップを PRM が高く採点した割合)、学習前と学習後</translation>
        </message>
        <message>
            <source>Label source</source>
            <translation>ラベルの出所</translation>
        </message>
        <message>
            <source>Held-out pairs</source>
            <translation>ホールドアウトのペア数</translation>
        </message>
        <message>
            <source>Before</source>
            <translation>学習前</translation>
        </message>
        <message>
            <source>After</source>
            <translation>学習後</translation>
        </message>
        <message>
            <source>Change</source>
            <translation>変化</translation>
        </message>
        <message>
            <source>PRM-filtered fine-tuning (RFT)</source>
            <translation>PRM で選別した微調整(RFT)</translation>
        </message>
        <message>
            <source>The SFT policy samples trajectories of the training questions, the right ones are scored step by step by the PRM, and the policy is fine-tuned on what passes, as rwb prm rft does (ProRAG §3.3, docs/prm.md). With held-out questions, EM and F1 before and after are in the result.</source>
            <translation>rwb prm rft と同じく、SFT 方策が学習用の質問の軌跡をサンプリングし、正しいものを PRM がステップごとに採点し、通ったもので方策を微調整します(ProRAG §3.3、docs/prm.md)。ホールドアウトの質問を指定すると、前後の EM と F1 が結果に入ります。</translation>
        </message>
        <message>
            <source>Models and questions</source>
            <translation>モデルと質問</translation>
        </message>
        <message>
            <source>The SFT policy&apos;s folder: it samples, and is fine-tuned</source>
            <translation>SFT 方策のフォルダー。これがサンプリングし、微調整されます</translation>
        </message>
        <message>
            <source>The process reward model (Jobs ▸ PRM training writes one)</source>
            <translation>過程報酬モデル(ジョブ ▸ PRM の学習で書き出せます)</translation>
        </message>
        <message>
            <source>Training questions</source>
            <translation>学習用の質問</translation>
        </message>
        <message>
            <source>The task&apos;s JSONL with gold answers whose trajectories are sampled</source>
            <translation>軌跡をサンプリングする、正解付きのタスクの JSONL</translation>
        </message>
        <message>
            <source>Retrieval index</source>
            <translation>検索インデックス</translation>
        </message>
        <message>
            <source>BM25 index of the questions&apos; knowledge base (rwb retrieve index)</source>
            <translation>質問の知識ベースの BM25 インデックス(rwb retrieve index)</translation>
        </message>
        <message>
            <source>Retrieval indexes (*.sqlite)</source>
            <translation>検索インデックス (*.sqlite)</translation>
        </message>
        <message>
            <source>Fine-tuned policy</source>
            <translation>微調整した方策</translation>
        </message>
        <message>
            <source>Where the fine-tuned policy is written; the kept trajectories go beside it (.rft.jsonl)</source>
            <translation>微調整した方策の書き込み先。残した軌跡はその隣に書かれます(.rft.jsonl)</translation>
        </message>
        <message>
            <source>Questions (0: all)</source>
            <translation>質問数(0: すべて)</translation>
        </message>
        <message>
            <source>Sample only the first N questions</source>
            <translation>最初の N 問だけをサンプリングします</translation>
        </message>
        <message>
            <source>Sampling and filtering</source>
            <translation>サンプリングと選別</translation>
        </message>
        <message>
            <source>Samples per question</source>
            <translation>質問あたりのサンプル数</translation>
        </message>
        <message>
            <source>Trajectories sampled per training question</source>
            <translation>学習用の質問 1 つあたりにサンプリングする軌跡の数</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <source>Sampling temperature</source>
            <translation>サンプリングの温度</translation>
        </message>
        <message>
            <source>Completion tokens</source>
            <translation>生成トークン数</translation>
        </message>
        <message>
            <source>The policy&apos;s tokens per trajectory (retrieved passages not counted)</source>
            <translation>軌跡あたりの方策のトークン数(検索したパッセージは数えません)</translation>
        </message>
        <message>
            <source>Passages retrieved</source>
            <translation>検索するパッセージ数</translation>
        </message>
        <message>
            <source>Passages a sub-query&apos;s retrieval returns</source>
            <translation>サブクエリの検索が返すパッセージの数</translation>
        </message>
        <message>
            <source>Right answer</source>
            <translation>正しい回答</translation>
        </message>
        <message>
            <source>em: the answer matches the gold; f1: its token F1 is at least the minimum below</source>
            <translation>em: 回答が正解と一致。f1: トークン F1 が下の最小値以上</translation>
        </message>
        <message>
            <source>Minimum F1</source>
            <translation>最小 F1</translation>
        </message>
        <message>
            <source>With answer f1: the least F1 of a right answer</source>
            <translation>f1 のとき: 正しい回答とみなす F1 の最小値</translation>
        </message>
        <message>
            <source>PRM threshold</source>
            <translation>PRM のしきい値</translation>
        </message>
        <message>
            <source>On the PRM&apos;s raw score: a step scoring above it trains (ProRAG keeps R &gt; 0)</source>
            <translation>PRM の生のスコアに対するしきい値。これを超えたステップが学習に使われます(ProRAG は R &gt; 0 を残します)</translation>
        </message>
        <message>
            <source>Filter</source>
            <translation>選別</translation>
        </message>
        <message>
            <source>step: steps at or under the threshold stay as context only; trajectory: every step must clear</source>
            <translation>step: しきい値以下のステップは文脈としてだけ残ります。trajectory: すべてのステップが超える必要があります</translation>
        </message>
        <message>
            <source>The sampling&apos;s seed</source>
            <translation>サンプリングのシード</translation>
        </message>
        <message>
            <source>Fine-tuning</source>
            <translation>微調整</translation>
        </message>
        <message>
            <source>SFT&apos;s learning rate on the kept trajectories</source>
            <translation>残した軌跡での SFT の学習率</translation>
        </message>
        <message>
            <source>Passes over the kept trajectories</source>
            <translation>残した軌跡を通す回数</translation>
        </message>
        <message>
            <source>Sequences per micro-batch</source>
            <translation>マイクロバッチあたりの系列数</translation>
        </message>
        <message>
            <source>Prompt and trajectory tokens; longer trajectories are skipped and counted</source>
            <translation>プロンプトと軌跡のトークン数。これより長い軌跡は飛ばして数えます</translation>
        </message>
        <message>
            <source>Evaluation before and after</source>
            <translation>前後の評価</translation>
        </message>
        <message>
            <source>Questions for greedy EM and F1 before and after (empty: none)</source>
            <translation>前後の貪欲デコードの EM と F1 を測る質問(空: なし)</translation>
        </message>
        <message>
            <source>Their retrieval index</source>
            <translation>その検索インデックス</translation>
        </message>
        <message>
            <source>The held-out questions&apos; index (empty: the training questions&apos; index)</source>
            <translation>ホールドアウトの質問のインデックス(空: 学習用の質問のインデックス)</translation>
        </message>
        <message>
            <source>not a PRM folder (no prm_head.safetensors): Jobs ▸ PRM training writes one</source>
            <translation>PRM のフォルダーではありません(prm_head.safetensors がありません)。ジョブ ▸ PRM の学習で書き出せます</translation>
        </message>
        <message>
            <source>&amp;Preference pairs and judge labels…</source>
            <translation>選好ペアと審査モデルのラベル(&amp;P)…</translation>
        </message>
        <message>
            <source>Preference pairs of %1</source>
            <translation>%1 の選好ペア</translation>
        </message>
        <message>
            <source>Judge labels of %1</source>
            <translation>%1 の審査モデルのラベル</translation>
        </message>
        <message>
            <source>Preference pairs</source>
            <translation>選好ペア</translation>
        </message>
        <message>
            <source>PRM &amp;training…</source>
            <translation>PRM の学習(&amp;T)…</translation>
        </message>
        <message>
            <source>PRM training on %1</source>
            <translation>%1 での PRM の学習</translation>
        </message>
        <message>
            <source>loss, held-out pairwise accuracy</source>
            <translation>損失、ホールドアウトでのペア正解率</translation>
        </message>
        <message>
            <source>PRM-filtered &amp;fine-tuning (RFT)…</source>
            <translation>PRM で選別した微調整(RFT)(&amp;F)…</translation>
        </message>
        <message>
            <source>PRM-filtered fine-tuning of %1</source>
            <translation>%1 の PRM で選別した微調整</translation>
        </message>
        <message numerus="yes">
            <source>No pair: no two sibling steps of the run&apos;s %n tree(s), both visited often enough, differ in Q by the margin or more.</source>
            <translation>
                <numerusform>ペアがありません: 実行の %n 本の木に、十分に訪問された兄弟ステップで Q の差がマージン以上のものがありません。</numerusform>
            </translation>
        </message>
        <message>
            <source>evaluating the policy before</source>
            <translation>微調整前の方策を評価中</translation>
        </message>
        <message>
            <source>sampling and scoring trajectories</source>
            <translation>軌跡をサンプリングして採点中</translation>
        </message>
        <message>
            <source>fine-tuning on what passed</source>
            <translation>通ったもので微調整中</translation>
        </message>
        <message>
            <source>evaluating the policy after</source>
            <translation>微調整後の方策を評価中</translation>
        </message>
        <message>
            <source>not measured</source>
            <translation>未測定</translation>
        </message>
    </context>
    <context>
        <name>MctsJob</name>
        <message>
            <source>&amp;MCTS search…</source>
            <translation>MCTS 探索(&amp;M)…</translation>
        </message>
        <message>
            <source>Also decode each question greedily, to compare</source>
            <translation>比較のため各質問を貪欲デコードでも解く</translation>
        </message>
        <message>
            <source>BM25 index of the questions&apos; knowledge base (rwb retrieve index); the multi-hop task needs it</source>
            <translation>質問の知識ベースの BM25 インデックス(rwb retrieve index)。マルチホップタスクに必要です</translation>
        </message>
        <message>
            <source>Children per expansion (K)</source>
            <translation>展開ごとの子ノード数 (K)</translation>
        </message>
        <message>
            <source>Empty: "mcts &lt;questions file&gt;"</source>
            <translation>空欄: 「mcts &lt;質問ファイル&gt;」</translation>
        </message>
        <message>
            <source>Exploration (c_puct)</source>
            <translation>探索の重み (c_puct)</translation>
        </message>
        <message>
            <source>Greedy baseline</source>
            <translation>貪欲デコードの基準</translation>
        </message>
        <message>
            <source>Iterations of select, expand, simulate, back up per question</source>
            <translation>質問ごとの選択・展開・シミュレーション・逆伝播の反復回数</translation>
        </message>
        <message>
            <source>MCTS search</source>
            <translation>MCTS 探索</translation>
        </message>
        <message>
            <source>MCTS search of %1</source>
            <translation>%1 の MCTS 探索</translation>
        </message>
        <message>
            <source>Maximum depth</source>
            <translation>最大深さ</translation>
        </message>
        <message>
            <source>PUCT&apos;s exploration weight (ProRAG: 2.5)</source>
            <translation>PUCT の探索の重み(ProRAG: 2.5)</translation>
        </message>
        <message>
            <source>Passages a retrieval step returns</source>
            <translation>検索ステップが返す文書数</translation>
        </message>
        <message>
            <source>Passages retrieved</source>
            <translation>検索する文書数</translation>
        </message>
        <message>
            <source>Policy and questions</source>
            <translation>方策と質問</translation>
        </message>
        <message>
            <source>Policy model</source>
            <translation>方策モデル</translation>
        </message>
        <message>
            <source>Preset</source>
            <translation>プリセット</translation>
        </message>
        <message>
            <source>Question sets (*.jsonl)</source>
            <translation>質問セット (*.jsonl)</translation>
        </message>
        <message>
            <source>Questions</source>
            <translation>質問</translation>
        </message>
        <message>
            <source>Questions (0: all)</source>
            <translation>質問数(0: すべて)</translation>
        </message>
        <message>
            <source>Retrieval index</source>
            <translation>検索インデックス</translation>
        </message>
        <message>
            <source>Retrieval indexes (*.sqlite)</source>
            <translation>検索インデックス (*.sqlite)</translation>
        </message>
        <message>
            <source>Run name</source>
            <translation>ラン名</translation>
        </message>
        <message>
            <source>Run store</source>
            <translation>ランストア</translation>
        </message>
        <message>
            <source>Run stores (*.sqlite)</source>
            <translation>ランストア (*.sqlite)</translation>
        </message>
        <message>
            <source>Sampling temperature of the expansions</source>
            <translation>展開時のサンプリング温度</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>探索</translation>
        </message>
        <message>
            <source>Search only the first N questions</source>
            <translation>先頭の N 問だけを探索する</translation>
        </message>
        <message>
            <source>Searches every question of a question set with the policy and its retrieval environment, as rwb mcts run does (docs/mcts.md). Every tree goes to the run store as it grows; the search-trees window follows it live.</source>
            <translation>rwb mcts run と同じく、方策と検索環境で質問セットの各質問を探索します(docs/mcts.md)。木は育つそばからランストアに書かれ、探索木ウィンドウがライブで追います。</translation>
        </message>
        <message>
            <source>Seed</source>
            <translation>シード</translation>
        </message>
        <message>
            <source>Simulations</source>
            <translation>シミュレーション回数</translation>
        </message>
        <message>
            <source>Steps before a trajectory is cut</source>
            <translation>軌跡を打ち切るまでのステップ数</translation>
        </message>
        <message>
            <source>Steps sampled when a node is expanded</source>
            <translation>ノード展開時にサンプリングするステップ数</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <source>The SFT policy&apos;s folder (config.json, weights, tokenizer) that proposes each step</source>
            <translation>各ステップを提案する SFT 方策のフォルダ(config.json、重み、トークナイザ)</translation>
        </message>
        <message>
            <source>The longest step the policy may write</source>
            <translation>方策が書けるステップの最大長</translation>
        </message>
        <message>
            <source>The search&apos;s random seed</source>
            <translation>探索の乱数シード</translation>
        </message>
        <message>
            <source>The task&apos;s JSONL with gold answers (rwb data synth --task multihop)</source>
            <translation>正解つきのタスク JSONL(rwb data synth --task multihop)</translation>
        </message>
        <message>
            <source>Threads (0: auto)</source>
            <translation>スレッド数(0: 自動)</translation>
        </message>
        <message>
            <source>Tokens per step</source>
            <translation>ステップあたりのトークン数</translation>
        </message>
        <message>
            <source>Where the trees go (a run of kind "mcts")</source>
            <translation>木の保存先(種類「mcts」のラン)</translation>
        </message>
        <message>
            <source>libtorch&apos;s CPU threads</source>
            <translation>libtorch の CPU スレッド数</translation>
        </message>
        <message>
            <source>small: 24 simulations, K 3, depth 6 (a tiny model on 2 cores); paper: ProRAG §4.3&apos;s 200 simulations, K 5, depth 10. Choosing one sets the three fields below</source>
            <translation>small: 24 シミュレーション、K 3、深さ 6(2 コアで小型モデル向け)。paper: ProRAG §4.3 の 200 シミュレーション、K 5、深さ 10。選ぶと下の 3 項目が設定されます</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JobForm</name>
        <message>
            <source>%1: a file, not a folder: %2</source>
            <translation>%1: フォルダではなくファイルです: %2</translation>
        </message>
        <message>
            <source>%1: a folder, not a file: %2</source>
            <translation>%1: ファイルではなくフォルダです: %2</translation>
        </message>
        <message>
            <source>%1: cannot write the job&apos;s config (%2)</source>
            <translation>%1: ジョブの設定を書き込めません(%2)</translation>
        </message>
        <message>
            <source>%1: no such file: %2</source>
            <translation>%1: ファイルがありません: %2</translation>
        </message>
        <message>
            <source>%1: no such folder: %2</source>
            <translation>%1: フォルダがありません: %2</translation>
        </message>
        <message>
            <source>%1: required</source>
            <translation>%1: 必須です</translation>
        </message>
        <message>
            <source>Browse</source>
            <translation>参照</translation>
        </message>
        <message>
            <source>Copy command</source>
            <translation>コマンドをコピー</translation>
        </message>
        <message>
            <source>Start</source>
            <translation>開始</translation>
        </message>
        <message>
            <source>The command this runs (the CLI writes the same files):</source>
            <translation>実行されるコマンド(CLI でも同じファイルが書かれます):</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JobView</name>
        <message>
            <source>%1 elapsed</source>
            <translation>経過 %1</translation>
        </message>
        <message>
            <source>%1 of %2</source>
            <translation>%1 / %2</translation>
        </message>
        <message numerus="yes">
            <source>%n item(s)</source>
            <translation>
                <numerusform>%n 項目</numerusform>
            </translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取り消し</translation>
        </message>
        <message>
            <source>Ended: %1</source>
            <translation>終了: %1</translation>
        </message>
        <message>
            <source>Finished in %1.</source>
            <translation>%1 で完了しました。</translation>
        </message>
        <message>
            <source>No job yet. The Jobs menu starts the MCTS search, preference pairs and their judge labels, PRM training, PRM-filtered fine-tuning, a judge&apos;s evaluation and imports; each is followed here.</source>
            <translation>まだジョブはありません。ジョブ メニューから MCTS 探索、選好ペアとジャッジのラベル、PRM の学習、PRM で選別したファインチューニング、ジャッジの評価、インポートを始められ、ここで経過を追えます。</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>結果</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>値</translation>
        </message>
        <message>
            <source>about %1 left</source>
            <translation>残り約 %1</translation>
        </message>
        <message>
            <source>step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>Stop now</source>
            <translation>すぐに止める</translation>
        </message>
        <message>
            <source>Stop the job at once, without waiting for its step to end</source>
            <translation>ステップの終わりを待たずにジョブをすぐに止めます</translation>
        </message>
        <message>
            <source>Ask the job to stop at its next step, as Ctrl-C would: an MCTS run, PRM training, RFT, GRPO and pair judging keep what they did</source>
            <translation>Ctrl-C と同じく、次の区切りで止まるようジョブに頼みます。MCTS 探索、PRM の学習、RFT、GRPO、ペアの審査はそれまでの結果を残します</translation>
        </message>
    </context>
    <context>
        <name>ImportJob</name>
        <message>
            <source>&amp;Import rollouts…</source>
            <translation>ロールアウトの取り込み(&amp;I)…</translation>
        </message>
        <message>
            <source>Add a folder…</source>
            <translation>フォルダーを追加…</translation>
        </message>
        <message>
            <source>Add files…</source>
            <translation>ファイルを追加…</translation>
        </message>
        <message>
            <source>Also eval rows</source>
            <translation>評価の行も</translation>
        </message>
        <message>
            <source>Another trainer&apos;s rollouts (verl, TRL, OpenRLHF, prime-rl, NeMo-RL) into a run of the store, as rwb import does (docs/handoff.md): the curves, groups, the rollout browser, the token view and the failure explorer then work on it. Choose the dump: the trainer is detected and what maps to what shows below before anything is imported.</source>
            <translation>他のトレーナー（verl、TRL、OpenRLHF、prime-rl、NeMo-RL）のロールアウトを、rwb import と同じようにストアのランへ取り込みます（docs/handoff.md）。取り込んだランでは曲線、グループ、ロールアウトブラウザー、トークン表示、失敗エクスプローラーが使えます。ダンプを選ぶとトレーナーを判定し、何が何になるかを取り込む前に下に表示します。</translation>
        </message>
        <message>
            <source>Dump</source>
            <translation>ダンプ</translation>
        </message>
        <message>
            <source>Each step&apos;s rollouts form groups of this many, in the order of the dump; 0: the rollouts of a step with the same prompt (or the same uid / group field) form a group</source>
            <translation>各ステップのロールアウトをダンプの順にこの数ずつグループにします。0：同じステップで同じプロンプト（または同じ uid / group フィールド）のロールアウトを 1 グループにします</translation>
        </message>
        <message>
            <source>Empty: the first input&apos;s file or folder name</source>
            <translation>空欄：最初の入力のファイル名またはフォルダー名</translation>
        </message>
        <message>
            <source>Every file or folder must be there to preview the dump.</source>
            <translation>ダンプをプレビューするには、すべてのファイルとフォルダーが存在する必要があります。</translation>
        </message>
        <message>
            <source>Files or folders</source>
            <translation>ファイルまたはフォルダー</translation>
        </message>
        <message>
            <source>Group size (0: by prompt)</source>
            <translation>グループサイズ（0：プロンプトごと）</translation>
        </message>
        <message>
            <source>Import of %1</source>
            <translation>%1 の取り込み</translation>
        </message>
        <message>
            <source>Import rollouts</source>
            <translation>ロールアウトの取り込み</translation>
        </message>
        <message>
            <source>Import rollouts: the dump&apos;s files</source>
            <translation>ロールアウトの取り込み：ダンプのファイル</translation>
        </message>
        <message>
            <source>Import rollouts: the dump&apos;s folder</source>
            <translation>ロールアウトの取り込み：ダンプのフォルダー</translation>
        </message>
        <message>
            <source>Rollout dumps (*.jsonl *.json *.csv *.parquet);;All files (*)</source>
            <translation>ロールアウトのダンプ (*.jsonl *.json *.csv *.parquet);;すべてのファイル (*)</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>ラン</translation>
        </message>
        <message>
            <source>Run name</source>
            <translation>ラン名</translation>
        </message>
        <message>
            <source>Run store</source>
            <translation>ランストア</translation>
        </message>
        <message>
            <source>Run stores (*.sqlite)</source>
            <translation>ランストア (*.sqlite)</translation>
        </message>
        <message>
            <source>TRL: also the rows of its evaluation steps; prime-rl: also its eval episodes</source>
            <translation>TRL：評価ステップの行も、prime-rl：評価エピソードも取り込みます</translation>
        </message>
        <message>
            <source>Task</source>
            <translation>タスク</translation>
        </message>
        <message>
            <source>The dump: files (.jsonl, .json, .csv, .parquet) or folders searched for them, one step per file; several separated by ";"</source>
            <translation>ダンプ：ファイル（.jsonl、.json、.csv、.parquet）またはそれらを探すフォルダー。1 ファイルが 1 ステップです。複数は ";" で区切ります</translation>
        </message>
        <message>
            <source>The policy&apos;s tokenizer folder (tokenizer.json or tokenizer.model): the token view shows the tokens&apos; text; it also decodes completions a dump holds only as token ids</source>
            <translation>方策のトークナイザーのフォルダー（tokenizer.json または tokenizer.model）。トークン表示がトークンの文字列を表示し、トークン ID しかないダンプの出力も復号します</translation>
        </message>
        <message>
            <source>The store the run goes to (created when missing)</source>
            <translation>ランを書き込むストア（なければ作成）</translation>
        </message>
        <message>
            <source>The task the rollouts are for, recorded with the run (empty: none)</source>
            <translation>ロールアウトのタスク。ランに記録されます（空欄：なし）</translation>
        </message>
        <message>
            <source>The tokenizer folder must be there to preview the dump.</source>
            <translation>ダンプをプレビューするには、トークナイザーのフォルダーが存在する必要があります。</translation>
        </message>
        <message>
            <source>Tokenizer</source>
            <translation>トークナイザー</translation>
        </message>
        <message>
            <source>Trainer</source>
            <translation>トレーナー</translation>
        </message>
        <message>
            <source>What maps to what</source>
            <translation>何が何になるか</translation>
        </message>
        <message>
            <source>auto: from the first row&apos;s fields; or the trainer that wrote the dump</source>
            <translation>auto：最初の行のフィールドから判定。またはダンプを書いたトレーナー</translation>
        </message>
        <message>
            <source>no such file or folder: %1</source>
            <translation>ファイルまたはフォルダーがありません：%1</translation>
        </message>
        <message>
            <source>no such folder: %1</source>
            <translation>フォルダーがありません：%1</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::ImportMappingModel</name>
        <message>
            <source>Becomes</source>
            <translation>取り込み先</translation>
        </message>
        <message>
            <source>Field of the dump</source>
            <translation>ダンプのフィールド</translation>
        </message>
        <message>
            <source>How many of the rows read have the field</source>
            <translation>読んだ行のうち、このフィールドを持つ行の数</translation>
        </message>
        <message>
            <source>Rows</source>
            <translation>行数</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::ImportPreviewModel</name>
        <message>
            <source>(computed)</source>
            <translation>（計算）</translation>
        </message>
        <message>
            <source>Advantage</source>
            <translation>アドバンテージ</translation>
        </message>
        <message>
            <source>Completion</source>
            <translation>モデルの出力</translation>
        </message>
        <message>
            <source>From</source>
            <translation>出どころ</translation>
        </message>
        <message>
            <source>Gold</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>Group</source>
            <translation>グループ</translation>
        </message>
        <message>
            <source>None</source>
            <translation>None</translation>
        </message>
        <message>
            <source>None: the dump gives this rollout no reward</source>
            <translation>None：ダンプにこのロールアウトの報酬がありません</translation>
        </message>
        <message>
            <source>Not in the dump: GRPO&apos;s, from the group&apos;s rewards, is worked out on import</source>
            <translation>ダンプにありません：取り込み時にグループの報酬から GRPO のアドバンテージを計算します</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>プロンプト</translation>
        </message>
        <message>
            <source>Reward</source>
            <translation>報酬</translation>
        </message>
        <message>
            <source>Reward components</source>
            <translation>報酬コンポーネント</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>ステップ</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::ImportPreviewPanel</name>
        <message>
            <source>%1 step(s), %2 group(s). The run: "%3".</source>
            <translation>%1 ステップ、%2 グループ。ラン：「%3」。</translation>
        </message>
        <message numerus="yes">
            <source>%1, detected from the first row. %n file(s) to import.</source>
            <translation>
                <numerusform>%1（最初の行から判定）。取り込むファイルは %n 件。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n file(s); none could be previewed here (see below): the import reads them and its report shows the mapping.</source>
            <translation>
                <numerusform>%n 件のファイル。ここではどれもプレビューできません（下を参照）。取り込みで読み、その報告に対応が表示されます。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>All %n rollout(s) read:</source>
            <translation>
                <numerusform>全 %n 件のロールアウトを読みました：</numerusform>
            </translation>
        </message>
        <message>
            <source>Choose a dump: its trainer, fields and first rows show here before importing.</source>
            <translation>ダンプを選んでください。取り込む前に、トレーナー、フィールド、最初の行をここに表示します。</translation>
        </message>
        <message>
            <source>NeMo-RL&apos;s train data</source>
            <translation>NeMo-RL の学習データ</translation>
        </message>
        <message>
            <source>Not previewed: %1</source>
            <translation>プレビューなし：%1</translation>
        </message>
        <message>
            <source>OpenRLHF&apos;s samples</source>
            <translation>OpenRLHF のサンプル</translation>
        </message>
        <message>
            <source>Skipped: %1</source>
            <translation>スキップ：%1</translation>
        </message>
        <message>
            <source>TRL&apos;s completions table</source>
            <translation>TRL の completions テーブル</translation>
        </message>
        <message numerus="yes">
            <source>The first %n rollout(s) read, of %1 file(s) so far:</source>
            <translation>
                <numerusform>最初の %n 件のロールアウトを読みました（ここまで %1 ファイル）：</numerusform>
            </translation>
        </message>
        <message>
            <source>The first rows, as the import reads them:</source>
            <translation>取り込みで読まれる最初の行：</translation>
        </message>
        <message>
            <source>The import would stop here: %1</source>
            <translation>取り込みはここで止まります：%1</translation>
        </message>
        <message>
            <source>What maps to what (grey: kept only in each rollout&apos;s details, or not imported):</source>
            <translation>何が何になるか（灰色：各ロールアウトの詳細にだけ残るもの、または取り込まないもの）：</translation>
        </message>
        <message>
            <source>Worked out: %1</source>
            <translation>計算するもの：%1</translation>
        </message>
        <message>
            <source>not detected</source>
            <translation>判定できません</translation>
        </message>
        <message>
            <source>prime-rl&apos;s episodes</source>
            <translation>prime-rl のエピソード</translation>
        </message>
        <message>
            <source>verl&apos;s rollout dump</source>
            <translation>verl のロールアウトダンプ</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JudgeEvalItemModel</name>
        <message>
            <source>%1 → %2</source>
            <translation>%1 → %2</translation>
        </message>
        <message>
            <source>Answer kind</source>
            <translation>回答の種類</translation>
        </message>
        <message>
            <source>Contradiction</source>
            <translation>矛盾</translation>
        </message>
        <message>
            <source>Coverage</source>
            <translation>網羅度</translation>
        </message>
        <message>
            <source>Facts</source>
            <translation>事実数</translation>
        </message>
        <message>
            <source>Reply or error</source>
            <translation>応答またはエラー</translation>
        </message>
        <message>
            <source>Request</source>
            <translation>リクエスト</translation>
        </message>
        <message>
            <source>The reference grader&apos;s label → the judge&apos;s</source>
            <translation>参照採点器のラベル → 審査モデルのラベル</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失敗</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>不明</translation>
        </message>
    </context>
    <context>
        <name>JudgeEvalJob</name>
        <message>
            <source>&amp;Judge evaluation…</source>
            <translation>審査モデルの評価(&amp;J)…</translation>
        </message>
        <message>
            <source>A reward config with a "judge" object, or a file holding just that object (docs/judges.md)</source>
            <translation>"judge" オブジェクトを持つ報酬設定、またはそのオブジェクトだけのファイル（docs/judges.md）</translation>
        </message>
        <message>
            <source>Each request&apos;s result</source>
            <translation>各リクエストの結果</translation>
        </message>
        <message>
            <source>Grade only the first N requests</source>
            <translation>最初の N 件のリクエストだけを採点します</translation>
        </message>
        <message>
            <source>How far to trust a judge, as rwb judge eval measures it (docs/judges.md): the judge grades every labelled request through the same client, cache and reading as the coverage and consistency rewards, and its labels are counted against the reference grader&apos;s: per label precision and recall, and the agreement per kind of answer and per number of reference facts. The tables open in the Jobs dock when it ends.</source>
            <translation>審査モデルをどこまで信頼できるかを rwb judge eval と同じように測ります（docs/judges.md）。審査モデルは、網羅度・一貫性の報酬と同じクライアント、キャッシュ、読み取りでラベル付きリクエストをすべて採点し、そのラベルを参照採点器のラベルと突き合わせます：ラベルごとの適合率と再現率、回答の種類ごと・参照の事実数ごとの一致率。終わるとジョブドックに表が開きます。</translation>
        </message>
        <message>
            <source>JSON lines (*.jsonl)</source>
            <translation>JSON Lines (*.jsonl)</translation>
        </message>
        <message>
            <source>Judge and data</source>
            <translation>審査モデルとデータ</translation>
        </message>
        <message>
            <source>Judge config</source>
            <translation>審査モデルの設定</translation>
        </message>
        <message>
            <source>Judge data (*.jsonl)</source>
            <translation>審査モデルのデータ (*.jsonl)</translation>
        </message>
        <message>
            <source>Judge evaluation</source>
            <translation>審査モデルの評価</translation>
        </message>
        <message>
            <source>Judge evaluation on %1</source>
            <translation>%1 での審査モデルの評価</translation>
        </message>
        <message>
            <source>Judge or reward configs (*.json)</source>
            <translation>審査モデルまたは報酬の設定 (*.json)</translation>
        </message>
        <message>
            <source>Labelled requests</source>
            <translation>ラベル付きリクエスト</translation>
        </message>
        <message>
            <source>Lines of rwb judge data: each request with the reference grader&apos;s coverage and contradiction; answers the judge did not train on</source>
            <translation>rwb judge data の行：各リクエストと参照採点器の網羅度・矛盾。審査モデルが学習していない回答にします</translation>
        </message>
        <message>
            <source>Neither read nor write the judge&apos;s cache file: every request goes to the judge</source>
            <translation>審査モデルのキャッシュファイルを読み書きしません。すべてのリクエストを審査モデルに送ります</translation>
        </message>
        <message>
            <source>One JSON line per request: the labels, the judge&apos;s, the raw reply or error (rwb judge eval --out); the tables&apos; slices are counted from it</source>
            <translation>リクエストごとに 1 行の JSON：ラベル、審査モデルのラベル、生の応答またはエラー（rwb judge eval --out）。表の切り口はここから数えます</translation>
        </message>
        <message>
            <source>Output</source>
            <translation>出力</translation>
        </message>
        <message>
            <source>Requests (0: all)</source>
            <translation>リクエスト数（0：すべて）</translation>
        </message>
        <message>
            <source>Without the cache</source>
            <translation>キャッシュを使わない</translation>
        </message>
        <message>
            <source>no such folder: %1</source>
            <translation>フォルダーがありません：%1</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JudgeEvalSliceModel</name>
        <message>
            <source>(none)</source>
            <translation>（なし）</translation>
        </message>
        <message>
            <source>All requests</source>
            <translation>すべてのリクエスト</translation>
        </message>
        <message>
            <source>Answer kind: %1</source>
            <translation>回答の種類：%1</translation>
        </message>
        <message>
            <source>Contradiction agrees</source>
            <translation>矛盾の一致</translation>
        </message>
        <message>
            <source>Coverage agrees</source>
            <translation>網羅度の一致</translation>
        </message>
        <message>
            <source>Failed</source>
            <translation>失敗</translation>
        </message>
        <message>
            <source>Reference facts: %1</source>
            <translation>参照の事実数：%1</translation>
        </message>
        <message>
            <source>Requests</source>
            <translation>リクエスト</translation>
        </message>
        <message>
            <source>Slice</source>
            <translation>切り口</translation>
        </message>
        <message>
            <source>The share of the slice&apos;s requests on which the judge gave the reference grader&apos;s label; a failed or unreadable reply counts as a disagreement</source>
            <translation>この切り口のリクエストのうち、審査モデルが参照採点器と同じラベルを付けた割合。失敗した応答や読めない応答は不一致に数えます</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>不明</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JudgeEvalView</name>
        <message>
            <source>%1 (n %2)</source>
            <translation>%1（n %2）</translation>
        </message>
        <message>
            <source>%1 on %2 requests: %3 failed or unreadable, %4 answered from the cache; %5 prompt and %6 completion tokens; %7 s.</source>
            <translation>%1、%2 件のリクエスト：失敗または読めない応答 %3 件、キャッシュからの応答 %4 件。トークンはプロンプト %5、出力 %6。%7 秒。</translation>
        </message>
        <message>
            <source>%1: agreement %2, macro F1 %3 (n %4; rows: the reference grader, columns: the judge)</source>
            <translation>%1：一致率 %2、マクロ F1 %3（n %4。行：参照採点器、列：審査モデル）</translation>
        </message>
        <message>
            <source>%1: cannot read the requests&apos; results (%2)</source>
            <translation>%1：リクエストの結果を読めません（%2）</translation>
        </message>
        <message>
            <source>%1:%2: %3</source>
            <translation>%1:%2: %3</translation>
        </message>
        <message numerus="yes">
            <source>%n request(s) of the slice with %1 %2 by the reference grader and %3 by the judge.</source>
            <translation>
                <numerusform>この切り口で、%1 が参照採点器では %2、審査モデルでは %3 のリクエスト %n 件。</numerusform>
            </translation>
        </message>
        <message>
            <source>&amp;Slice:</source>
            <translation>切り口(&amp;S)：</translation>
        </message>
        <message>
            <source>Agreement</source>
            <translation>一致</translation>
        </message>
        <message>
            <source>Contradiction</source>
            <translation>矛盾</translation>
        </message>
        <message>
            <source>Coverage</source>
            <translation>網羅度</translation>
        </message>
        <message>
            <source>Requests</source>
            <translation>リクエスト</translation>
        </message>
        <message>
            <source>Slices</source>
            <translation>切り口</translation>
        </message>
        <message>
            <source>The requests the tables count: all, one kind of answer, or those whose reference answer has a number of facts. A judge can agree well overall and badly on one slice, which a policy trained against it finds</source>
            <translation>表が数えるリクエスト：すべて、ある種類の回答、または参照回答の事実数が同じもの。審査モデルは全体ではよく一致しても、ある切り口では一致しないことがあり、それに対して学習した方策はその切り口を見つけます</translation>
        </message>
        <message numerus="yes">
            <source>The slice&apos;s %n request(s); click a cell of a matrix to list its requests.</source>
            <translation>
                <numerusform>この切り口のリクエスト %n 件。行列のセルをクリックすると、そのリクエストを一覧します。</numerusform>
            </translation>
        </message>
        <message>
            <source>a request marked ok needs "judged_coverage" and "judged_contradiction"</source>
            <translation>ok のリクエストには "judged_coverage" と "judged_contradiction" が必要です</translation>
        </message>
        <message>
            <source>any</source>
            <translation>すべて</translation>
        </message>
        <message>
            <source>contradiction</source>
            <translation>矛盾</translation>
        </message>
        <message>
            <source>coverage</source>
            <translation>網羅度</translation>
        </message>
        <message>
            <source>field "%1" missing</source>
            <translation>フィールド "%1" がありません</translation>
        </message>
        <message>
            <source>not a JSON object (a line of rwb judge eval --out)</source>
            <translation>JSON オブジェクトではありません（rwb judge eval --out の行）</translation>
        </message>
    </context>
    <context>
        <name>rwb::widgets::JudgeLabelScoresModel</name>
        <message>
            <source>F1</source>
            <translation>F1</translation>
        </message>
        <message>
            <source>Judged</source>
            <translation>審査モデルの件数</translation>
        </message>
        <message>
            <source>Label</source>
            <translation>ラベル</translation>
        </message>
        <message>
            <source>Of the %1 requests the judge called %2, the share the reference grader called %2 too</source>
            <translation>審査モデルが %2 とした %1 件のうち、参照採点器も %2 とした割合</translation>
        </message>
        <message>
            <source>Of the %1 requests the reference grader called %2, the share the judge called %2 too</source>
            <translation>参照採点器が %2 とした %1 件のうち、審査モデルも %2 とした割合</translation>
        </message>
        <message>
            <source>Precision</source>
            <translation>適合率</translation>
        </message>
        <message>
            <source>Recall</source>
            <translation>再現率</translation>
        </message>
        <message>
            <source>Support</source>
            <translation>件数（参照）</translation>
        </message>
        <message>
            <source>The harmonic mean of precision and recall</source>
            <translation>適合率と再現率の調和平均</translation>
        </message>
    </context>
    <context>
        <name>ImportTargets</name>
        <message>
            <source>None marker (rwb serve&apos;s reward_none: the reward is None)</source>
            <translation>None の印(rwb serve の reward_none: 報酬が None)</translation>
        </message>
        <message>
            <source>advantage</source>
            <translation>アドバンテージ</translation>
        </message>
        <message>
            <source>answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>completion</source>
            <translation>出力</translation>
        </message>
        <message>
            <source>completion (prompt and completion decoded together: the table keeps no prompt)</source>
            <translation>出力(プロンプトと出力をまとめてデコードしたもの: この表はプロンプトを持ちません)</translation>
        </message>
        <message>
            <source>details</source>
            <translation>詳細</translation>
        </message>
        <message>
            <source>details (dispatch_step: when it was sampled; the step is the step_N folder&apos;s)</source>
            <translation>詳細(dispatch_step: サンプリングした時点。ステップは step_N フォルダのもの)</translation>
        </message>
        <message>
            <source>details (each error&apos;s type and message)</source>
            <translation>詳細(各エラーの種類とメッセージ)</translation>
        </message>
        <message>
            <source>details (info)</source>
            <translation>詳細(info)</translation>
        </message>
        <message>
            <source>details (metrics)</source>
            <translation>詳細(metrics)</translation>
        </message>
        <message>
            <source>details (the sample&apos;s place in verl&apos;s val/generations table)</source>
            <translation>詳細(verl の val/generations 表でのサンプルの位置)</translation>
        </message>
        <message>
            <source>gold answer</source>
            <translation>正解</translation>
        </message>
        <message>
            <source>group</source>
            <translation>グループ</translation>
        </message>
        <message>
            <source>log-probs new (the trainer&apos;s forward pass before the update)</source>
            <translation>新しい対数確率(更新前のトレーナーの順伝播)</translation>
        </message>
        <message>
            <source>log-probs old (the inference engine&apos;s, at sampling)</source>
            <translation>古い対数確率(サンプリング時の推論エンジンのもの)</translation>
        </message>
        <message>
            <source>log-probs ref (the reference model&apos;s)</source>
            <translation>参照の対数確率(参照モデルのもの)</translation>
        </message>
        <message>
            <source>not imported (all 0: the trainer&apos;s forward pass was skipped)</source>
            <translation>取り込まない(すべて 0: トレーナーの順伝播が省かれた)</translation>
        </message>
        <message>
            <source>not imported (images)</source>
            <translation>取り込まない(画像)</translation>
        </message>
        <message>
            <source>not imported (the row&apos;s number in the file)</source>
            <translation>取り込まない(ファイル内での行番号)</translation>
        </message>
        <message>
            <source>per-token advantages</source>
            <translation>トークンごとのアドバンテージ</translation>
        </message>
        <message>
            <source>per-token advantages (their mean: the advantage)</source>
            <translation>トークンごとのアドバンテージ(その平均がアドバンテージ)</translation>
        </message>
        <message>
            <source>prompt</source>
            <translation>プロンプト</translation>
        </message>
        <message>
            <source>prompt and completion (the last branch&apos;s messages; the first sampled one starts the completion)</source>
            <translation>プロンプトと出力(最後の分岐のメッセージ。最初にサンプリングされたものから出力)</translation>
        </message>
        <message>
            <source>prompt and completion (the messages&apos; texts, joined as the model saw them)</source>
            <translation>プロンプトと出力(メッセージのテキストをモデルが見た形で連結)</translation>
        </message>
        <message>
            <source>reward</source>
            <translation>報酬</translation>
        </message>
        <message>
            <source>reward (the score again, in validation dumps)</source>
            <translation>報酬(検証ダンプでは score の繰り返し)</translation>
        </message>
        <message>
            <source>reward component</source>
            <translation>報酬コンポーネント</translation>
        </message>
        <message>
            <source>reward components (each score) and reward (the sum of score × weight)</source>
            <translation>報酬コンポーネント(各スコア)と報酬(スコア × 重みの和)</translation>
        </message>
        <message>
            <source>reward components (numbers), details (the rest)</source>
            <translation>報酬コンポーネント(数値)、詳細(それ以外)</translation>
        </message>
        <message>
            <source>reward function</source>
            <translation>報酬関数</translation>
        </message>
        <message>
            <source>step</source>
            <translation>ステップ</translation>
        </message>
        <message>
            <source>step (the file is in no step_N folder)</source>
            <translation>ステップ(ファイルが step_N フォルダにない)</translation>
        </message>
        <message>
            <source>the prompt&apos;s record (meta)</source>
            <translation>プロンプトの記録(meta)</translation>
        </message>
        <message>
            <source>the tokens before the padding</source>
            <translation>パディング前のトークン</translation>
        </message>
        <message>
            <source>token ids (the generated tokens: token_loss_mask 1)</source>
            <translation>トークン ID(生成したトークン: token_loss_mask 1)</translation>
        </message>
        <message>
            <source>token ids (the model&apos;s spans of them, by action_ranges)</source>
            <translation>トークン ID(action_ranges によるモデルの区間)</translation>
        </message>
        <message>
            <source>token ids (the sampled tokens: mask true)</source>
            <translation>トークン ID(サンプリングしたトークン: mask true)</translation>
        </message>
        <message>
            <source>train or eval (eval episodes skipped unless --include-eval)</source>
            <translation>学習か評価か(--include-eval がなければ評価エピソードは飛ばす)</translation>
        </message>
        <message>
            <source>train or eval (eval rows skipped unless --include-eval)</source>
            <translation>学習か評価か(--include-eval がなければ評価の行は飛ばす)</translation>
        </message>
        <message>
            <source>truncated</source>
            <translation>打ち切り</translation>
        </message>
        <message>
            <source>truncated ("length")</source>
            <translation>打ち切り("length")</translation>
        </message>
        <message>
            <source>truncated (a length limit) and details</source>
            <translation>打ち切り(長さの上限)と詳細</translation>
        </message>
        <message>
            <source>which tokens the model generated</source>
            <translation>モデルが生成したトークン</translation>
        </message>
        <message>
            <source>; tool calls as &lt;tool_call&gt; text, the messages also in the details</source>
            <translation>。ツール呼び出しは &lt;tool_call&gt; テキストとして、メッセージは詳細にも</translation>
        </message>
    </context>
</TS>
