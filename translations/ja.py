#!/usr/bin/env python3
"""Fills translations/reward-workbench_ja.ts from the table below.

Run after `cmake --build build --target update_translations` has added new source
texts; it marks every translated message finished and lists those still missing
(exit 1 when any is missing). Keys are (context, source); plural forms are lists.
"""
import glob
import os
import runpy
import sys
import xml.etree.ElementTree as ET

JA = {
    # ComponentWeightsEditor
    ("ComponentWeightsEditor", "Weight of each reward component; the share is its part of the total."):
        "各報酬コンポーネントの重み。割合は合計に占める比率です。",
    ("ComponentWeightsEditor", "All weights are 0: give at least one component a weight."):
        "すべての重みが 0 です。少なくとも 1 つのコンポーネントに重みを付けてください。",
    ("ComponentWeightsEditor", "Weight of %1"): "%1 の重み",
    ("ComponentWeightsEditor", "Share of %1 in the total"): "合計に占める %1 の割合",
    # GroupAdvantageModel
    ("rwb::widgets::GroupAdvantageModel", "all equal"): "すべて同じ",
    ("rwb::widgets::GroupAdvantageModel", "Every sample of this group got the same reward: its advantages are 0 and it teaches nothing."):
        "このグループのサンプルはすべて同じ報酬でした。アドバンテージは 0 で、学習には寄与しません。",
    ("rwb::widgets::GroupAdvantageModel", "reward %1, advantage %2"): "報酬 %1、アドバンテージ %2",
    ("rwb::widgets::GroupAdvantageModel", "Group"): "グループ",
    ("rwb::widgets::GroupAdvantageModel", "Prompt"): "プロンプト",
    ("rwb::widgets::GroupAdvantageModel", "Gold"): "正解",
    ("rwb::widgets::GroupAdvantageModel", "Mean"): "平均",
    ("rwb::widgets::GroupAdvantageModel", "Std"): "標準偏差",
    ("rwb::widgets::GroupAdvantageModel", "Flat"): "差なし",
    ("rwb::widgets::GroupAdvantageModel", "Sample %1"): "サンプル %1",
    # RolloutTableModel
    ("rwb::widgets::RolloutTableModel", "yes"): "はい",
    ("rwb::widgets::RolloutTableModel", "Step"): "ステップ",
    ("rwb::widgets::RolloutTableModel", "Group"): "グループ",
    ("rwb::widgets::RolloutTableModel", "Sample"): "サンプル",
    ("rwb::widgets::RolloutTableModel", "Reward"): "報酬",
    ("rwb::widgets::RolloutTableModel", "Advantage"): "アドバンテージ",
    ("rwb::widgets::RolloutTableModel", "Answer"): "回答",
    ("rwb::widgets::RolloutTableModel", "Gold"): "正解",
    ("rwb::widgets::RolloutTableModel", "Tokens"): "トークン数",
    ("rwb::widgets::RolloutTableModel", "Truncated"): "打ち切り",
    ("rwb::widgets::RolloutTableModel", "Completion"): "モデルの出力",
    # MainWindow
    ("MainWindow", "Reward config: %1"): "報酬設定: %1",
    ("MainWindow", "Reward Workbench"): "Reward Workbench",
    ("MainWindow", "Reward components"): "報酬コンポーネント",
    ("MainWindow", "Sample details"): "サンプルの詳細",
    ("MainWindow", "&File"): "ファイル(&F)",
    ("MainWindow", "&View"): "表示(&V)",
    ("MainWindow", "&Settings"): "設定(&S)",
    ("MainWindow", "&Language"): "言語(&L)",
    ("MainWindow", "&Help"): "ヘルプ(&H)",
    ("MainWindow", "&Open samples…"): "サンプルを開く(&O)…",
    ("MainWindow", "Open the &bundled samples"): "同梱サンプルを開く(&B)",
    ("MainWindow", "&Load reward config…"): "報酬設定を読み込む(&L)…",
    ("MainWindow", "&Save reward config as…"): "報酬設定に名前を付けて保存(&S)…",
    ("MainWindow", "&Quit"): "終了(&Q)",
    ("MainWindow", "&Reset layout"): "レイアウトをリセット(&R)",
    ("MainWindow", "&About Reward Workbench"): "Reward Workbench について(&A)",
    ("MainWindow", "System language"): "システムの言語",
    ("MainWindow", "bundled samples"): "同梱サンプル",
    ("MainWindow", "%1 · %n sample(s)"): ["%1 · %n 件のサンプル"],
    ("MainWindow", "Open samples"): "サンプルを開く",
    ("MainWindow", "The bundled samples are shown instead."): "代わりに同梱サンプルを表示します。",
    ("MainWindow", "%n malformed line(s) skipped: %1"): ["不正な行を %n 行スキップしました: %1"],
    ("MainWindow", "Load reward config"): "報酬設定の読み込み",
    ("MainWindow", "The paper's best preset is used instead."): "代わりに論文の最良プリセットを使います。",
    ("MainWindow", "About Reward Workbench"): "Reward Workbench について",
    ("MainWindow", "<h3>Reward Workbench %1</h3><p>Design rewards for GRPO fine-tuning, see what each component gives on real samples, and debug failed extractions.</p>"):
        "<h3>Reward Workbench %1</h3><p>GRPO ファインチューニング用の報酬を設計し、各コンポーネントが実際のサンプルに与える値を確かめ、抽出の失敗をデバッグします。</p>",
    # RewardDesigner
    ("RewardDesigner", "%1: cannot open: %2"): "%1: 開けません: %2",
    ("RewardDesigner", "%1: no valid sample line (%n malformed line(s))"): ["%1: 有効なサンプル行がありません（不正な行 %n 行）"],
    ("RewardDesigner", "%1: cannot write: %2"): "%1: 書き込めません: %2",
    ("RewardDesigner", "Open samples"): "サンプルを開く",
    ("RewardDesigner", "Extraction samples (*.jsonl);;All files (*)"): "抽出サンプル (*.jsonl);;すべてのファイル (*)",
    ("RewardDesigner", "%n malformed line(s) were skipped; the other lines are loaded. The file was not changed."):
        ["不正な行を %n 行スキップし、残りの行を読み込みました。ファイルは変更していません。"],
    ("RewardDesigner", "Load reward config"): "報酬設定の読み込み",
    ("RewardDesigner", "Reward configs (*.json);;All files (*)"): "報酬設定 (*.json);;すべてのファイル (*)",
    ("RewardDesigner", "Save reward config"): "報酬設定の保存",
    ("RewardDesigner", "Reward configs (*.json)"): "報酬設定 (*.json)",
    ("RewardDesigner", "Saved %1"): "%1 を保存しました",
    ("RewardDesigner", "%1 of %2 samples"): "%2 件中 %1 件のサンプル",
    ("RewardDesigner", "&Preset (the paper's configurations):"): "プリセット（論文の構成）(&P):",
    ("RewardDesigner", "Load…"): "読み込み…",
    ("RewardDesigner", "Load a reward config (JSON)"): "報酬設定 (JSON) を読み込みます",
    ("RewardDesigner", "Save as…"): "名前を付けて保存…",
    ("RewardDesigner", "Save the weights and the mode as a reward config (JSON)"): "重みとモードを報酬設定 (JSON) として保存します",
    ("RewardDesigner", "Thinking mode"): "思考モード",
    ("RewardDesigner", "The answer is the text inside the first <answer>…</answer> of the completion."):
        "回答は出力の最初の <answer>…</answer> の中のテキストです。",
    ("RewardDesigner", "Config: (unsaved)"): "設定: （未保存）",
    ("RewardDesigner", "Config: %1"): "設定: %1",
    ("RewardDesigner", "Search id, kind, answer, gold…"): "ID・種類・回答・正解を検索…",
    ("RewardDesigner", "No score filter"): "スコアで絞り込まない",
    ("RewardDesigner", "Total"): "合計",
    ("RewardDesigner", "Show only samples whose score meets the condition"): "スコアが条件を満たすサンプルだけを表示します",
    # RewardText
    ("RewardText", "Longest common substring of answer and gold: 2·LCS / (|answer| + |gold|)."):
        "回答と正解の最長共通部分文字列: 2·LCS / (|回答| + |正解|)。",
    ("RewardText", "Like partial, after removing legal-entity markers (株式会社, (株), …) from both."):
        "両方から法人格（株式会社、(株) など）を除いたうえでの partial。",
    ("RewardText", "1 when the answer occurs in the sender header or the e-mail body (or both are 不明)."):
        "回答が送信者ヘッダかメール本文に含まれていれば 1（両方が「不明」の場合も 1）。",
    ("RewardText", "1 when the completion is <thinking>…</thinking> followed by <answer>…</answer>."):
        "出力が <thinking>…</thinking> の直後に <answer>…</answer> が続く形式なら 1。",
    ("RewardText", "Best match between the romanized answer (or a synonym) and the sender's e-mail domain."):
        "ローマ字化した回答（または同義語）と送信者メールアドレスのドメインとの最大一致率。",
    ("RewardText", "Common substring of %1 characters; answer %2, gold %3 characters: 2·%1 / (%2 + %3) = %4."):
        "共通部分文字列 %1 文字、回答 %2 文字、正解 %3 文字: 2·%1 / (%2 + %3) = %4。",
    ("RewardText", "Answer and gold are both empty: 1."): "回答と正解がどちらも空: 1。",
    ("RewardText", "The compared answer is empty: 0."): "比較する回答が空: 0。",
    ("RewardText", "The compared gold is empty: 0."): "比較する正解が空: 0。",
    ("RewardText", "Both are only legal-entity markers, so the unstripped strings are compared: %1."):
        "両方とも法人格だけなので、除去前の文字列を比較: %1。",
    ("RewardText", "Gold and answer are both 不明: 1."): "正解と回答がどちらも「不明」: 1。",
    ("RewardText", "The answer occurs in the sender header or the e-mail body: 1."): "回答が送信者ヘッダかメール本文に含まれる: 1。",
    ("RewardText", "The answer occurs nowhere in the sender header or the e-mail body: 0."):
        "回答が送信者ヘッダにもメール本文にも含まれない: 0。",
    ("RewardText", "The answer is empty: 0."): "回答が空: 0。",
    ("RewardText", "The completion is <thinking>…</thinking> followed by <answer>…</answer>: 1."):
        "出力が <thinking>…</thinking> に続く <answer>…</answer> の形式: 1。",
    ("RewardText", "The completion does not start with <thinking>: 0."): "出力が <thinking> で始まらない: 0。",
    ("RewardText", "</thinking> is missing: 0."): "</thinking> がない: 0。",
    ("RewardText", "</thinking> is not followed by <answer>: 0."): "</thinking> の後に <answer> が続かない: 0。",
    ("RewardText", "</answer> is missing: 0."): "</answer> がない: 0。",
    ("RewardText", "There is text after </answer>: 0."): "</answer> の後にテキストがある: 0。",
    ("RewardText", "A block contains another opening tag: 0."): "ブロックの中に別の開始タグがある: 0。",
    ("RewardText", "The format does not match: 0."): "形式が一致しない: 0。",
    ("RewardText", "The answer is 不明, so there is nothing to compare with the domain: 0."):
        "回答が「不明」なので、ドメインと比較するものがない: 0。",
    ("RewardText", "The sender header has no e-mail address: 0."): "送信者ヘッダにメールアドレスがない: 0。",
    ("RewardText", "Best of %n romanized candidate(s) against the domain \"%1\": %2."):
        ["ローマ字化した候補 %n 件とドメイン「%1」との最大一致率: %2。"],
    # SampleDetailView
    ("SampleDetailView", "Select a sample to see why each reward component gave what it gave."):
        "サンプルを選ぶと、各報酬コンポーネントがその値を与えた理由を表示します。",
    ("SampleDetailView", "Reward"): "報酬",
    ("SampleDetailView", "Value"): "値",
    ("SampleDetailView", "Weight"): "重み",
    ("SampleDetailView", "Contribution"): "寄与",
    ("SampleDetailView", "Why"): "理由",
    ("SampleDetailView", "Total"): "合計",
    ("SampleDetailView", "Σ weight·value / Σ weight"): "Σ 重み·値 / Σ 重み",
    ("SampleDetailView", "Normalized answer and gold"): "正規化した回答と正解",
    ("SampleDetailView", "After removing legal-entity markers"): "法人格を除いた後",
    ("SampleDetailView", "Answer"): "回答",
    ("SampleDetailView", "Gold"): "正解",
    ("SampleDetailView", "Removed from the answer"): "回答から除いた法人格",
    ("SampleDetailView", "Removed from the gold"): "正解から除いた法人格",
    ("SampleDetailView", "Romanized candidates against the domain \"%1\""): "ローマ字化した候補とドメイン「%1」",
    ("SampleDetailView", "Candidate"): "候補",
    ("SampleDetailView", "Romaji"): "ローマ字",
    ("SampleDetailView", "Match"): "一致率",
    ("SampleDetailView", "Completion"): "モデルの出力",
    ("SampleDetailView", "Extracted answer:"): "抽出した回答:",
    ("SampleDetailView", "E-mail"): "メール",
    ("SampleDetailView", "gold"): "正解",
    ("SampleDetailView", "answer"): "回答",
    ("SampleDetailView", "From:"): "送信者:",
    # SampleScoreModel
    ("SampleScoreModel", "ID"): "ID",
    ("SampleScoreModel", "Kind"): "種類",
    ("SampleScoreModel", "Answer"): "回答",
    ("SampleScoreModel", "Gold"): "正解",
    ("SampleScoreModel", "Total"): "合計",
    ("SampleScoreModel", "Σ weight·reward / Σ weight"): "Σ 重み·報酬 / Σ 重み",
    ("SampleScoreModel", "The label of the bundled samples: what kind of candidate this completion is."):
        "同梱サンプルのラベル: この出力がどの種類の候補か。",
    # main (command line)
    ("main", "Reward Workbench: design and debug rewards for GRPO fine-tuning."):
        "Reward Workbench: GRPO ファインチューニングの報酬を設計・デバッグします。",
    ("main", "Extraction samples to open (JSONL)."): "開く抽出サンプル (JSONL)。",
    ("main", "file"): "ファイル",
    ("main", "Reward config to open (JSON)."): "開く報酬設定 (JSON)。",
    ("main", "Language: system, en or ja (remembered)."): "言語: system、en または ja（次回も使われます）。",
    ("main", "code"): "コード",
    ("main", "Select this row of the sample table."): "サンプル表のこの行を選択します。",
    ("main", "row"): "行",
    ("main", "Save a screenshot of the window to this PNG and quit."): "ウィンドウのスクリーンショットをこの PNG に保存して終了します。",
    ("main", "png"): "png",
    ("main", "Benchmark: time a weight change on this many samples, print JSON and quit."):
        "ベンチマーク: この件数のサンプルで重みの変更にかかる時間を測り、JSON を出力して終了します。",
    ("main", "count"): "件数",
}


def load_tables():
    """This table plus those of translations/ja_*.py (one per area of the workbench, each
    defining its own JA dict), so that views written side by side do not edit one file."""
    table = dict(JA)
    here = os.path.dirname(os.path.abspath(__file__))
    for extra in sorted(glob.glob(os.path.join(here, "ja_*.py"))):
        for key, value in runpy.run_path(extra)["JA"].items():
            if key in table and table[key] != value:
                print(f"conflict: {os.path.basename(extra)}: {key}", file=sys.stderr)
            table[key] = value
    return table


def main(path):
    JA = load_tables()
    tree = ET.parse(path)
    missing = []
    for ctx in tree.getroot().findall("context"):
        name = ctx.find("name").text
        for m in ctx.findall("message"):
            src = m.find("source").text
            tr = m.find("translation")
            value = JA.get((name, src))
            if value is None:
                missing.append((name, src))
                continue
            for child in list(tr):
                tr.remove(child)
            tr.text = None
            if "type" in tr.attrib:
                del tr.attrib["type"]
            if m.get("numerus") == "yes":
                forms = value if isinstance(value, list) else [value]
                for f in forms:
                    ET.SubElement(tr, "numerusform").text = f
            else:
                tr.text = value if isinstance(value, str) else value[0]
    ET.indent(tree, space="    ")
    with open(path, "wb") as f:
        f.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        tree.write(f, encoding="utf-8", xml_declaration=False)
        f.write(b"\n")
    for name, src in missing:
        print(f"missing: {name}: {src}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "translations/reward-workbench_ja.ts"))
