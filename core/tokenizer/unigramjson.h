#pragma once

// A tokenizer.json whose model is "Unigram" (XLM-RoBERTa, BGE-M3, multilingual-e5, T5 …),
// run as Hugging Face tokenizers runs it, step for step:
//
//   added tokens  those with "normalized": false cut out of the raw text; each stretch
//                 between them normalized; those with "normalized": true cut out of that
//                 (Tokenizer::normalizesFirst())
//   normalizer    hfnormalizer.h: NFC/NFD/NFKC/NFKD, Lowercase, StripAccents, Strip,
//                 Replace, Prepend, Precompiled (as nmt_nfkc), or a Sequence of them
//   pre_tokenizer WhitespaceSplit (words at Unicode White_Space, which is dropped) and
//                 Metaspace (spaces → "▁"; prepend_scheme "always": "▁" in front of every
//                 piece that does not start with one, "first": only of the piece at the
//                 very start of the text, "never"; split: cut before every "▁"), alone or
//                 as a Sequence
//   model         Unigram on each piece: the Viterbi segmentation of highest total score
//                 (scores as doubles), an unknown character costing the lowest score of
//                 the whole vocabulary minus 10, runs of unknown characters fused into
//                 one <unk>, or byte pieces with byte_fallback
//   decoder       Metaspace: "▁" → " ", except in the very first token (added tokens
//                 count), whose "▁"s are dropped unless prepend_scheme is "never"
//
// Checked against tokenizers 0.23 on the strings of tests/data/hf/tokenizers/unigram and
// unigram_metaspace (tst_hfgolden). Other pre-tokenizers and decoders are refused with
// the field named; so is a Metaspace with split false.
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
// "normalizer.normalizers[1].type", "pre_tokenizer.replacement", "decoder.type").
std::unique_ptr<SentencePieceTokenizer> unigramTokenizerFromJson(const nlohmann::json &doc, const std::string &fileName);

} // namespace rwb::tokenizer
