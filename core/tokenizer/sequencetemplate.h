#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace rwb::tokenizer {

class Tokenizer;

// What a tokenizer.json "post_processor" puts around ONE sequence (its "single" case):
// BERT's [CLS] $A [SEP], RoBERTa's <s> $A </s>, Qwen3-Embedding's $A <|endoftext|>.
// Tokenizer::encode() never adds these; callers that feed an encoder apply the template.
//
// Read from the post_processor types:
//   TemplateProcessing  "single": [{"SpecialToken": {"id": "[CLS]"}}, {"Sequence": {"id": "A"}},
//                       {"SpecialToken": {"id": "[SEP]"}}] with ids from "special_tokens"
//                       (["[CLS]"]["ids"]), else from the tokenizer's vocabulary
//   BertProcessing,     "cls": ["[CLS]", 101], "sep": ["[SEP]", 102] → cls $A sep
//   RobertaProcessing
//   ByteLevel           adds nothing
//   Sequence            "processors": the templates of its members, joined
//   null / absent       adds nothing
// Token type ids are not kept: one text per sequence, type 0 throughout.
//
// Immutable after construction; any thread may use it.
class SequenceTemplate {
public:
    SequenceTemplate() = default;
    SequenceTemplate(std::vector<int32_t> prefix, std::vector<int32_t> suffix);

    // From a parsed tokenizer.json. Throws data::InputException naming `fileName` and the
    // field ("post_processor.single[0].SpecialToken.id: \"[CLS]\" is not a token") for a
    // template it cannot read or a token it cannot find.
    static SequenceTemplate fromTokenizerJson(const nlohmann::json &doc, const Tokenizer &tokenizer,
                                              const std::string &fileName);

    const std::vector<int32_t> &prefix() const { return m_prefix; }
    const std::vector<int32_t> &suffix() const { return m_suffix; }
    bool empty() const { return m_prefix.empty() && m_suffix.empty(); }
    // How many ids the template adds.
    size_t addedCount() const { return m_prefix.size() + m_suffix.size(); }

    // prefix + ids + suffix, where ids keeps its first maxLength − addedCount() ids when
    // the whole would be longer than maxLength (0: no limit), as Hugging Face truncates
    // ("longest_first", right side) before adding special tokens.
    std::vector<int32_t> apply(const std::vector<int32_t> &ids, size_t maxLength = 0) const;

private:
    std::vector<int32_t> m_prefix;
    std::vector<int32_t> m_suffix;
};

} // namespace rwb::tokenizer
