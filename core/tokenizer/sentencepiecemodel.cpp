#include "tokenizer/sentencepiecemodel.h"

#include "data/jsonl.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace rwb::tokenizer {

namespace {

// Protobuf wire types.
constexpr uint32_t kVarint = 0;
constexpr uint32_t kFixed64 = 1;
constexpr uint32_t kLengthDelimited = 2;
constexpr uint32_t kFixed32 = 5;

// Reads one message's fields from a byte range; every error names the file, the field
// path and the byte offset in the file.
class WireReader {
public:
    WireReader(std::string_view bytes, size_t base, const std::string &file, std::string path)
        : m_bytes(bytes), m_base(base), m_file(file), m_path(std::move(path))
    {
    }

    bool atEnd() const { return m_pos >= m_bytes.size(); }

    // Reads a tag; returns false at the end of the message.
    bool next(uint32_t &field, uint32_t &wireType)
    {
        if (atEnd())
            return false;
        const uint64_t tag = varint("a field tag");
        field = static_cast<uint32_t>(tag >> 3);
        wireType = static_cast<uint32_t>(tag & 7);
        if (field == 0 || (tag >> 3) > 0x1FFFFFFF)
            fail("field number " + std::to_string(tag >> 3) + " is not valid");
        return true;
    }

    uint64_t varint(const char *what)
    {
        uint64_t v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (m_pos >= m_bytes.size())
                fail(std::string("truncated: the file ends inside ") + what);
            const auto b = static_cast<unsigned char>(m_bytes[m_pos++]);
            if (shift == 63 && b > 1)
                fail(std::string("malformed varint in ") + what);
            v |= static_cast<uint64_t>(b & 0x7F) << shift;
            if (!(b & 0x80))
                return v;
        }
        fail(std::string("malformed varint (more than 10 bytes) in ") + what);
    }

    // A length-delimited payload, with the file offset where it starts.
    std::string_view bytes(const char *what, size_t &offset)
    {
        const uint64_t len = varint(what);
        if (len > m_bytes.size() - m_pos)
            fail(std::string("truncated: ") + what + " says " + std::to_string(len) + " bytes but only " +
                 std::to_string(m_bytes.size() - m_pos) + " remain");
        offset = m_base + m_pos;
        const std::string_view v = m_bytes.substr(m_pos, static_cast<size_t>(len));
        m_pos += static_cast<size_t>(len);
        return v;
    }

    uint32_t fixed32(const char *what)
    {
        if (m_bytes.size() - m_pos < 4)
            fail(std::string("truncated: the file ends inside ") + what);
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i)
            v |= static_cast<uint32_t>(static_cast<unsigned char>(m_bytes[m_pos + i])) << (8 * i);
        m_pos += 4;
        return v;
    }

    void skip(uint32_t wireType, uint32_t field)
    {
        const std::string what = "field " + std::to_string(field);
        size_t offset = 0;
        switch (wireType) {
        case kVarint: varint(what.c_str()); break;
        case kFixed64:
            if (m_bytes.size() - m_pos < 8)
                fail("truncated: the file ends inside " + what);
            m_pos += 8;
            break;
        case kLengthDelimited: bytes(what.c_str(), offset); break;
        case kFixed32: fixed32(what.c_str()); break;
        default: fail(what + " has wire type " + std::to_string(wireType) + ", which is not valid here");
        }
    }

    void expect(uint32_t wireType, uint32_t expected, const char *field)
    {
        if (wireType != expected)
            fail(std::string(field) + " has wire type " + std::to_string(wireType) + ", expected " +
                 std::to_string(expected));
    }

    [[noreturn]] void fail(const std::string &reason) const
    {
        throw data::InputException({m_file, 0,
                                    m_path + ": " + reason + " (byte " + std::to_string(m_base + m_pos) + ")"});
    }

    const std::string &file() const { return m_file; }
    const std::string &path() const { return m_path; }

private:
    std::string_view m_bytes;
    size_t m_base;     // offset of m_bytes in the file
    size_t m_pos = 0;
    const std::string &m_file;
    std::string m_path;
};

int32_t toInt32(uint64_t v)
{
    // int32 fields are written sign-extended to 64 bits (-1 takes 10 bytes).
    return static_cast<int32_t>(static_cast<uint32_t>(v));
}

float toFloat(uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

SentencePiece parsePiece(std::string_view bytes, size_t base, const std::string &file, size_t index)
{
    WireReader r(bytes, base, file, "pieces[" + std::to_string(index) + "]");
    SentencePiece p;
    uint32_t field, wire;
    while (r.next(field, wire)) {
        size_t offset = 0;
        if (field == 1) {
            r.expect(wire, kLengthDelimited, "piece");
            p.piece = std::string(r.bytes("piece", offset));
        } else if (field == 2) {
            r.expect(wire, kFixed32, "score");
            p.score = toFloat(r.fixed32("score"));
        } else if (field == 3) {
            r.expect(wire, kVarint, "type");
            const int32_t t = toInt32(r.varint("type"));
            if (t < 1 || t > 6)
                r.fail("type " + std::to_string(t) + " is not one of NORMAL=1 … BYTE=6");
            p.type = static_cast<PieceType>(t);
        } else {
            r.skip(wire, field);
        }
    }
    return p;
}

void parseTrainerSpec(std::string_view bytes, size_t base, const std::string &file, SentencePieceOptions &o)
{
    WireReader r(bytes, base, file, "trainer_spec");
    uint32_t field, wire;
    while (r.next(field, wire)) {
        auto varintField = [&](const char *name) {
            r.expect(wire, kVarint, name);
            return r.varint(name);
        };
        switch (field) {
        case 3: {
            const int32_t t = toInt32(varintField("model_type"));
            if (t < 1 || t > 4)
                r.fail("model_type " + std::to_string(t) + " is not one of UNIGRAM=1, BPE=2, WORD=3, CHAR=4");
            o.algorithm = static_cast<SentencePieceAlgorithm>(t);
            break;
        }
        case 35: o.byteFallback = varintField("byte_fallback") != 0; break;
        case 40: o.unkId = toInt32(varintField("unk_id")); break;
        case 41: o.bosId = toInt32(varintField("bos_id")); break;
        case 42: o.eosId = toInt32(varintField("eos_id")); break;
        case 43: o.padId = toInt32(varintField("pad_id")); break;
        default: r.skip(wire, field);
        }
    }
}

void parseNormalizerSpec(std::string_view bytes, size_t base, const std::string &file, SentencePieceOptions &o)
{
    WireReader r(bytes, base, file, "normalizer_spec");
    uint32_t field, wire;
    while (r.next(field, wire)) {
        size_t offset = 0;
        switch (field) {
        case 1:
            r.expect(wire, kLengthDelimited, "name");
            o.normalizerName = std::string(r.bytes("name", offset));
            break;
        case 3: r.expect(wire, kVarint, "add_dummy_prefix"); o.addDummyPrefix = r.varint("add_dummy_prefix") != 0; break;
        case 4:
            r.expect(wire, kVarint, "remove_extra_whitespaces");
            o.removeExtraWhitespaces = r.varint("remove_extra_whitespaces") != 0;
            break;
        case 5:
            r.expect(wire, kVarint, "escape_whitespaces");
            o.escapeWhitespaces = r.varint("escape_whitespaces") != 0;
            break;
        default: r.skip(wire, field);
        }
    }
}

// Protobuf writer helpers.
void putVarint(std::string &out, uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7F) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

void putTag(std::string &out, uint32_t field, uint32_t wire)
{
    putVarint(out, (static_cast<uint64_t>(field) << 3) | wire);
}

void putInt32(std::string &out, uint32_t field, int32_t v)
{
    putTag(out, field, kVarint);
    putVarint(out, static_cast<uint64_t>(static_cast<int64_t>(v))); // negative: sign-extended, 10 bytes
}

void putBytes(std::string &out, uint32_t field, std::string_view v)
{
    putTag(out, field, kLengthDelimited);
    putVarint(out, v.size());
    out.append(v);
}

void putFloat(std::string &out, uint32_t field, float f)
{
    putTag(out, field, kFixed32);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<char>((bits >> (8 * i)) & 0xFF));
}

} // namespace

SentencePieceModel parseSentencePieceModel(std::string_view bytes, const std::string &fileName)
{
    SentencePieceModel model;
    // A file that leaves the normalizer name out uses the proto's default.
    model.options.normalizerName = "nmt_nfkc";
    if (bytes.empty())
        throw data::InputException({fileName, 0, "empty file: not a sentencepiece model"});
    WireReader r(bytes, 0, fileName, "ModelProto");
    uint32_t field, wire;
    while (r.next(field, wire)) {
        size_t offset = 0;
        if (field == 1) {
            r.expect(wire, kLengthDelimited, "pieces");
            const std::string_view payload = r.bytes("pieces", offset);
            model.pieces.push_back(parsePiece(payload, offset, fileName, model.pieces.size()));
        } else if (field == 2) {
            r.expect(wire, kLengthDelimited, "trainer_spec");
            const std::string_view payload = r.bytes("trainer_spec", offset);
            parseTrainerSpec(payload, offset, fileName, model.options);
        } else if (field == 3) {
            r.expect(wire, kLengthDelimited, "normalizer_spec");
            const std::string_view payload = r.bytes("normalizer_spec", offset);
            parseNormalizerSpec(payload, offset, fileName, model.options);
        } else {
            r.skip(wire, field);
        }
    }
    if (model.pieces.empty())
        throw data::InputException({fileName, 0, "pieces: none (not a sentencepiece model?)"});
    return model;
}

SentencePieceModel readSentencePieceModel(const std::string &path)
{
    return parseSentencePieceModel(data::readTextFile(path), path);
}

std::string serializeSentencePieceModel(const std::vector<SentencePiece> &pieces, const SentencePieceOptions &o)
{
    std::string out;
    for (const SentencePiece &p : pieces) {
        std::string m;
        putBytes(m, 1, p.piece);
        putFloat(m, 2, static_cast<float>(p.score));
        putInt32(m, 3, static_cast<int32_t>(p.type));
        putBytes(out, 1, m);
    }
    std::string trainer;
    putInt32(trainer, 3, static_cast<int32_t>(o.algorithm));
    putInt32(trainer, 4, static_cast<int32_t>(pieces.size())); // vocab_size
    putInt32(trainer, 35, o.byteFallback ? 1 : 0);
    putInt32(trainer, 40, o.unkId);
    putInt32(trainer, 41, o.bosId);
    putInt32(trainer, 42, o.eosId);
    putInt32(trainer, 43, o.padId);
    putBytes(out, 2, trainer);
    std::string normalizer;
    putBytes(normalizer, 1, o.normalizerName);
    putInt32(normalizer, 3, o.addDummyPrefix ? 1 : 0);
    putInt32(normalizer, 4, o.removeExtraWhitespaces ? 1 : 0);
    putInt32(normalizer, 5, o.escapeWhitespaces ? 1 : 0);
    putBytes(out, 3, normalizer);
    return out;
}

void writeSentencePieceModel(const std::string &path, const std::vector<SentencePiece> &pieces,
                             const SentencePieceOptions &options)
{
    const std::string bytes = serializeSentencePieceModel(pieces, options);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw data::InputException({path, 0, std::string("cannot write: ") + std::strerror(errno)});
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out)
        throw data::InputException({path, 0, "write failed (disk full?)"});
}

} // namespace rwb::tokenizer
