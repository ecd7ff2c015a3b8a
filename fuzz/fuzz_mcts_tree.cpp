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

namespace {

// Reads `j` with `read`; a tree read must read back from its own JSON (`write`).
template <typename Read, typename Write>
void roundTrip(const nlohmann::json &j, Read read, Write write, const char *what)
{
    std::string again;
    try {
        again = write(read(j)).dump();
    } catch (const rwb::data::InputException &) {
        return;
    }
    try {
        (void)read(nlohmann::json::parse(again));
    } catch (const std::exception &e) {
        fprintf(stderr, "%s does not read back from its own JSON: %s\n", what, e.what());
        abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const nlohmann::json j = rwb::util::parseJsonOrDiscarded(text, nullptr, rwb::mcts::kMaxTreeFileDepth);
    if (j.is_discarded())
        return 0;
    using namespace rwb::mcts;
    roundTrip(
        j, [](const nlohmann::json &v) { return fromRecordJson(v, "tree.json"); },
        [](const SearchRecord &r) {
            (void)summarize(r);
            return toRecordJson(r);
        },
        "a search record");
    roundTrip(
        j, [](const nlohmann::json &v) { return fromProragJson(v, "tree.json"); },
        [](const SearchTree &t) { return toProragJson(t); }, "a ProRAG tree");
    return 0;
}
