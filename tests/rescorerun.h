#pragma once

// The hand-made extraction run tst_rescore works out by hand and tst_rescoreview shows:
// two groups of four answers with their partial and marker values, the stored reward
// config (0.2·partial + 0.8·marker) and the two prompts. See tst_rescore.cpp for the
// values worked out from them.

#include "store/storetypes.h"

#include <vector>

namespace rwbtest::rescorerun {

// Stored config: total = 0.2·partial + 0.8·marker.
inline const char *const kStoredConfig =
    R"({"task": "company_extraction", "components": [{"reward": "partial", "weight": 20}, {"reward": "marker", "weight": 80}]})";

struct Row {
    const char *answer;
    double partial, marker;
};
// partial = 2·LCS / (|answer| + |gold|) (longest common substring, in characters);
// marker = the same with the legal-entity markers (株式会社 …) stripped first.
inline const Row kGroups[2][4] = {
    {{"株式会社ミハル包装", 5.0 / 7, 1.0}, {"ミハル包", 8.0 / 9, 8.0 / 9}, {"不明", 0, 0}, {"包装", 4.0 / 7, 4.0 / 7}},
    {{"サンプル商事", 1, 1}, {"株式会社サンプル商事", 0.75, 1}, {"サンプル", 0.8, 0.8}, {"不明", 0, 0}},
};

// Group 0's prompt (gold ミハル包装) and group 1's (gold サンプル商事).
inline std::vector<rwb::store::Prompt> prompts()
{
    return {{"p0", "差出人: info@miharu.co.jp\n株式会社ミハル包装の山田です。", "ミハル包装",
             R"({"sender_email": "info@miharu.co.jp", "email_text": "株式会社ミハル包装の山田です。"})"},
            {"p1", "差出人: sato@sample.jp\nサンプル商事の佐藤です。", "サンプル商事",
             R"({"sender_email": "sato@sample.jp", "email_text": "サンプル商事の佐藤です。"})"}};
}

} // namespace rwbtest::rescorerun
