// Any bytes as a line of each task's JSONL dataset (company extraction, legal QA,
// multi-hop QA, chat): refused with data::InputException, or a record whose own line
// (toJsonLine) parses again. A record that cannot be read back is a bug: abort.
#include "tasks/chat/chatrecord.h"
#include "tasks/extraction/extractionrecord.h"
#include "data/jsonl.h"
#include "tasks/legalqa/legalquestion.h"
#include "tasks/multihop/multihop.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

template <typename Parse, typename Write>
void roundTrip(std::string_view line, Parse parse, Write write)
{
    std::string again;
    try {
        again = write(parse(line));
    } catch (const rwb::data::InputException &) {
        return;
    }
    try {
        (void)parse(again);
    } catch (const rwb::data::InputException &e) {
        fprintf(stderr, "a record's own line does not parse: %s\n%s\n", e.what(), again.c_str());
        abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view line(reinterpret_cast<const char *>(data), size);
    const std::string source = "train.jsonl";
    using namespace rwb::data;
    for (const bool requireCompletion : {false, true}) {
        roundTrip(line, [&](std::string_view l) { return parseExtractionLine(l, source, 1, requireCompletion); },
                  [&](const ExtractionRecord &r) { return toJsonLine(r, requireCompletion); });
        roundTrip(line, [&](std::string_view l) { return parseLegalQuestionLine(l, source, 1, requireCompletion); },
                  [](const LegalQuestion &q) { return toJsonLine(q); });
        roundTrip(line, [&](std::string_view l) { return parseChatLine(l, source, 1, requireCompletion); },
                  [](const ChatRecord &r) { return chatLineWithCompletion(r, r.hasCompletion ? r.completion : std::string("done")); });
    }
    roundTrip(line, [&](std::string_view l) { return parseMultihopQuestionLine(l, source, 1); },
              [](const MultihopQuestion &q) { return toJsonLine(q); });
    return 0;
}
