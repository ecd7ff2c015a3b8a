#pragma once

// A workspace for tests that train with GRPO: synthetic train / val e-mails, a byte-level
// BPE tokenizer of 600 ids, the tiny default model with random weights, and reward.json
// (partial 20 + marker 80) — all made by the rwb binary, nothing downloaded.
#include "rwbprocess.h"
#include "train/grpo.h"

#include <QFile>
#include <QString>

namespace rwbtest {

// Returns false when a step fails.
inline bool makeTinyGrpoWorkspace(const QString &d, int trainEmails, int valEmails, int seed)
{
    const QString s = QString::number(seed);
    if (!runRwb({"data", "synth", "--task", "company_extraction", "--n", QString::number(trainEmails), "--seed", s,
                 "--split", "train", "--out", d + "/train.jsonl"}) ||
        !runRwb({"data", "synth", "--task", "company_extraction", "--n", QString::number(valEmails), "--seed", s,
                 "--split", "val", "--out", d + "/val.jsonl"}) ||
        !runRwb({"data", "corpus", "--input", d + "/train.jsonl", "--out", d + "/corpus.txt"}) ||
        !runRwb({"tokenizer", "train", "--input", d + "/corpus.txt", "--vocab-size", "600", "--out", d + "/tok"}) ||
        !runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", d + "/tiny", "--seed", "1"}))
        return false;
    QFile f(d + "/reward.json");
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(R"({"task": "company_extraction", "components": [{"reward": "partial", "weight": 20}, {"reward": "marker", "weight": 80}]})");
    return true;
}

// A small run in that workspace: G 4, 2 prompts per step, 8 tokens, 1 thread (so that
// sums are reproducible bit for bit); the store and output are named after `name`.
inline rwb::train::GrpoConfig tinyGrpoConfig(const QString &d, const QString &name, int steps, uint64_t seed)
{
    rwb::train::GrpoConfig c;
    c.model = (d + "/tiny").toStdString();
    c.trainData = (d + "/train.jsonl").toStdString();
    c.rewardConfig = (d + "/reward.json").toStdString();
    c.store = (d + "/" + name + ".sqlite").toStdString();
    c.output = (d + "/" + name).toStdString();
    c.groupSize = 4;
    c.promptsPerStep = 2;
    c.maxNewTokens = 8;
    c.maxSteps = steps;
    c.seed = seed;
    c.threads = 1;
    return c;
}

} // namespace rwbtest
