#include "text/romanize.h"

#include "text/normalize.h"
#include "text/utf8.h"

#include <cerrno>
#include <iconv.h>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

extern "C" {
#include <libkakasi.h>
}

namespace rwb::text {

namespace {

// Results kept before the cache is cleared; company names repeat a lot.
constexpr size_t kCacheLimit = 65536;

class IconvHandle {
public:
    IconvHandle(const char *to, const char *from) : m_cd(iconv_open(to, from))
    {
        if (m_cd == reinterpret_cast<iconv_t>(-1))
            throw std::runtime_error(std::string("iconv cannot convert ") + from + " to " + to);
    }
    ~IconvHandle() { iconv_close(m_cd); }
    IconvHandle(const IconvHandle &) = delete;
    IconvHandle &operator=(const IconvHandle &) = delete;

    // Converts; returns false if any input byte could not be converted.
    bool convert(std::string_view in, std::string &out)
    {
        iconv(m_cd, nullptr, nullptr, nullptr, nullptr);
        out.assign(in.size() * 4 + 8, '\0');
        char *src = const_cast<char *>(in.data());
        size_t srcLeft = in.size();
        char *dst = out.data();
        size_t dstLeft = out.size();
        const size_t r = iconv(m_cd, &src, &srcLeft, &dst, &dstLeft);
        out.resize(out.size() - dstLeft);
        return r != static_cast<size_t>(-1) && srcLeft == 0;
    }

private:
    iconv_t m_cd;
};

class Kakasi {
public:
    Kakasi() : m_toEuc("EUC-JP", "UTF-8"), m_fromEuc("UTF-8", "EUC-JP")
    {
        // -Ja: kanji to ascii, -Ha: hiragana, -Ka: katakana, -Ea: JIS symbols, -ka: half-width kana.
        const char *argv[] = {"kakasi", "-Ja", "-Ha", "-Ka", "-Ea", "-ka"};
        if (kakasi_getopt_argv(6, const_cast<char **>(argv)) != 0)
            throw std::runtime_error("KAKASI could not be initialised (is the kakasi-dic package installed?)");
    }

    std::string romanize(std::string_view utf8)
    {
        const std::string folded = nfkc(utf8);
        auto it = m_cache.find(folded);
        if (it != m_cache.end())
            return it->second;
        std::string euc;
        if (!m_toEuc.convert(folded, euc))
            euc = toEucPerCharacter(folded);
        std::string romaji;
        if (!euc.empty()) {
            char *r = kakasi_do(euc.data());
            if (r) {
                std::string utf;
                m_fromEuc.convert(r, utf);
                kakasi_free(r);
                romaji = asciiAlnumLower(utf);
            }
        }
        if (m_cache.size() >= kCacheLimit)
            m_cache.clear();
        m_cache.emplace(folded, romaji);
        return romaji;
    }

private:
    // Converts one code point at a time, dropping those that EUC-JP cannot hold.
    std::string toEucPerCharacter(const std::string &utf8)
    {
        std::string out;
        std::string one;
        for (char32_t c : decodeUtf8(utf8)) {
            if (m_toEuc.convert(encodeUtf8(std::u32string(1, c)), one))
                out += one;
        }
        return out;
    }

    static std::string asciiAlnumLower(const std::string &s)
    {
        std::string out;
        for (unsigned char c : s) {
            if (c >= 'A' && c <= 'Z')
                out.push_back(static_cast<char>(c - 'A' + 'a'));
            else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
                out.push_back(static_cast<char>(c));
        }
        return out;
    }

    IconvHandle m_toEuc;
    IconvHandle m_fromEuc;
    std::unordered_map<std::string, std::string> m_cache;
};

std::mutex &kakasiMutex()
{
    static std::mutex m;
    return m;
}

} // namespace

std::string romanize(std::string_view utf8)
{
    std::lock_guard<std::mutex> lock(kakasiMutex());
    static Kakasi kakasi;
    return kakasi.romanize(utf8);
}

} // namespace rwb::text
