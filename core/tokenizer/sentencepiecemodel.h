#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::tokenizer {

// The parts of sentencepiece's ModelProto (sentencepiece_model.proto) that encoding and
// decoding need, read and written with a small protobuf wire-format codec: libsentencepiece
// is not linked (it bundles its own protobuf and crashes beside libtorch).
//
//   ModelProto      1 pieces (repeated SentencePiece), 2 trainer_spec, 3 normalizer_spec
//   SentencePiece   1 piece (string), 2 score (float), 3 type (enum)
//   TrainerSpec     3 model_type, 35 byte_fallback, 40 unk_id, 41 bos_id, 42 eos_id, 43 pad_id
//   NormalizerSpec  1 name, 3 add_dummy_prefix, 4 remove_extra_whitespaces, 5 escape_whitespaces
// Every other field is skipped.

// SentencePiece.Type
enum class PieceType : int32_t { Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6 };

// TrainerSpec.ModelType
enum class SentencePieceAlgorithm : int32_t { Unigram = 1, Bpe = 2, Word = 3, Char = 4 };

struct SentencePiece {
    std::string piece;
    double score = 0.0; // a float in tokenizer.model; tokenizer.json's Unigram scores are doubles
    PieceType type = PieceType::Normal;
};

// The proto's defaults, except normalizerName: a model file that leaves the name out
// means "nmt_nfkc".
struct SentencePieceOptions {
    SentencePieceAlgorithm algorithm = SentencePieceAlgorithm::Unigram;
    bool byteFallback = false;
    int32_t unkId = 0;
    int32_t bosId = 1;
    int32_t eosId = 2;
    int32_t padId = -1; // -1: none
    std::string normalizerName = "identity";
    bool addDummyPrefix = true;
    bool removeExtraWhitespaces = true;
    bool escapeWhitespaces = true;
};

struct SentencePieceModel {
    std::vector<SentencePiece> pieces;
    SentencePieceOptions options;
};

// Parses a serialized ModelProto. Truncated or malformed input (a varint running past the
// end or longer than 10 bytes, a length beyond the end, wire types 3, 4, 6, 7, field 0, a
// score that is not a fixed32) throws data::InputException naming `fileName` and the field.
// Says nothing about whether the pieces make a usable model (SentencePieceTokenizer checks).
SentencePieceModel parseSentencePieceModel(std::string_view bytes, const std::string &fileName);

// Reads and parses a tokenizer.model file.
SentencePieceModel readSentencePieceModel(const std::string &path);

// The ModelProto bytes of `pieces` and `options` (every option written explicitly).
std::string serializeSentencePieceModel(const std::vector<SentencePiece> &pieces, const SentencePieceOptions &options);

// Writes a tokenizer.model that sentencepiece and readSentencePieceModel() both read.
// Throws data::InputException naming `path` when it cannot be written.
void writeSentencePieceModel(const std::string &path, const std::vector<SentencePiece> &pieces,
                             const SentencePieceOptions &options);

} // namespace rwb::tokenizer
