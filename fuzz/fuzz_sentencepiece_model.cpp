// Any bytes as a sentencepiece tokenizer.model (protobuf): refused with
// data::InputException, or a model that loads and then encodes and decodes.
#include "data/jsonl.h"
#include "tokenizer/sentencepiecemodel.h"
#include "tokenizer/sentencepiecetokenizer.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    try {
        rwb::tokenizer::SentencePieceModel m = rwb::tokenizer::parseSentencePieceModel(bytes, "tokenizer.model");
        const rwb::tokenizer::SentencePieceTokenizer t(std::move(m), "tokenizer.model");
        for (const std::string &text : {std::string("Hello ▁ world こんにちは\n"), std::string(bytes.substr(0, 128))}) {
            const std::vector<int32_t> ids = t.encode(text);
            (void)t.decode(ids, false);
        }
    } catch (const rwb::data::InputException &) {
    } catch (const std::invalid_argument &) {
    }
    return 0;
}
