// Any bytes as a tokenizer.json: read as each of the kinds the engine takes (byte-level BPE,
// WordPiece, Unigram), which must refuse with data::InputException or std::invalid_argument,
// never crash; a tokenizer that loads then encodes and decodes a fixed text and its own
// bytes.
#include "data/jsonl.h"
#include "tokenizer/bytelevelbpetokenizer.h"
#include "tokenizer/unigramjson.h"
#include "tokenizer/wordpiecetokenizer.h"
#include "util/boundedjson.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace {

void exercise(const rwb::tokenizer::Tokenizer &t, const std::string &raw)
{
    for (const std::string &text : {std::string("Hello, world! こんにちは <|im_end|>\n\t x"), raw.substr(0, 256)}) {
        const std::vector<int32_t> ids = t.encode(text);
        (void)t.decode(ids, false);
        (void)t.decode(ids, true);
        (void)t.encodeOrdinary(text);
    }
    (void)t.decode({-1, 0, 1, 2, 1 << 30}, false);
    (void)t.notes();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string raw(reinterpret_cast<const char *>(data), size);
    const nlohmann::json doc = rwb::util::parseJsonOrDiscarded(raw);
    if (doc.is_discarded())
        return 0;
    using namespace rwb::tokenizer;
    const auto attempt = [&](auto make) {
        try {
            const auto t = make();
            if (t)
                exercise(*t, raw);
        } catch (const rwb::data::InputException &) {
        } catch (const std::invalid_argument &) {
        }
    };
    attempt([&] { return ByteLevelBpeTokenizer::fromJson(doc, "tokenizer.json"); });
    attempt([&] { return WordPieceTokenizer::fromJson(doc, "tokenizer.json"); });
    attempt([&] { return unigramTokenizerFromJson(doc, "tokenizer.json"); });
    return 0;
}
