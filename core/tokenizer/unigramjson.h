#pragma once

// A tokenizer.json whose model is "Unigram" (XLM-RoBERTa, BGE-M3, multilingual-e5, T5 …)
// run on the sentencepiece engine of sentencepiecetokenizer.h: the file's vocabulary,
// with its ids and scores, becomes a SentencePieceModel.
//
//   model        "Unigram": vocab [[piece, score], …] (the id is the position), unk_id,
//                byte_fallback
//   normalizer   null → identity; "Precompiled" (sentencepiece's compiled nmt_nfkc
//                charsmap) or "NFKC" → nmt_nfkc; Replace of runs of spaces by one
//                space (" {2,}" or "  ") → remove_extra_whitespaces; "Strip" (both
//                sides) likewise; a Sequence of these
//   pre_tokenizer Metaspace (replacement "▁"; add_prefix_space or prepend_scheme
//                "always" / "first" → the dummy prefix, "never" → none), alone or after
//                WhitespaceSplit in a Sequence
//   added_tokens special tokens inside the vocabulary become CONTROL pieces (never
//                produced by segmentation); all are added tokens, matched in raw text
//
// Differences from Hugging Face's own run of such a file, all about white space:
// sentencepiece's remove_extra_whitespaces also trims both ends, where HF's Replace
// keeps one trailing space (a text ending in a space or newline gets a final "▁" token
// there, not here); with prepend_scheme "always" HF puts a "▁" after every added token,
// here only at the start. Texts are trimmed by the callers that matter (embedders).
//
// The tokenizer's bos / eos / pad are set from "<s>" / "</s>" / "<pad>" when the
// vocabulary has them; addsBos() stays false (SequenceTemplate adds <s> … </s>).

#include "tokenizer/sentencepiecetokenizer.h"

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace rwb::tokenizer {

// True when a parsed tokenizer.json has model.type "Unigram".
bool isUnigramJson(const nlohmann::json &doc);

// Throws data::InputException naming `fileName` and the field ("model.vocab[12]",
// "normalizer.normalizers[1].type", "pre_tokenizer.replacement").
std::unique_ptr<SentencePieceTokenizer> unigramTokenizerFromJson(const nlohmann::json &doc, const std::string &fileName);

} // namespace rwb::tokenizer
