// Any bytes as an MCTS tree file: the project's own record (what `rwb mcts export` writes
// and `rwb mcts import` reads, parsed with the tree depth bound) and ProRAG's nested
// mcts_tree. Refused with data::InputException, or a tree whose own JSON reads back.
#include "data/jsonl.h"
#include "mcts/searchrecord.h"
#include "mcts/treejson.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const nlohmann::json j = rwb::util::parseJsonOrDiscarded(text, nullptr, rwb::mcts::kMaxTreeFileDepth);
    if (j.is_discarded())
        return 0;
    try {
        const rwb::mcts::SearchRecord record = rwb::mcts::fromRecordJson(j, "tree.json");
        (void)rwb::mcts::summarize(record);
        const std::string again = rwb::mcts::toRecordJson(record).dump();
        try {
            (void)rwb::mcts::fromRecordJson(nlohmann::json::parse(again), "tree.json");
        } catch (const std::exception &e) {
            fprintf(stderr, "a tree's own record does not read back: %s\n", e.what());
            abort();
        }
    } catch (const rwb::data::InputException &) {
    }
    try {
        const rwb::mcts::SearchTree tree = rwb::mcts::fromProragJson(j, "tree.json");
        const std::string again = rwb::mcts::toProragJson(tree).dump();
        try {
            (void)rwb::mcts::fromProragJson(nlohmann::json::parse(again), "tree.json");
        } catch (const std::exception &e) {
            fprintf(stderr, "a ProRAG tree's own JSON does not read back: %s\n", e.what());
            abort();
        }
    } catch (const rwb::data::InputException &) {
    }
    return 0;
}
