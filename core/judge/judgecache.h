#pragma once

// The judge client's persistent cache: one SQLite file, one table
//   judge_cache(key TEXT PRIMARY KEY, reply TEXT, created REAL)
// where key is the hex SHA-256 of (backend, request) (judgeclient.h, cacheKey), reply the
// chat-completions JSON (chatReplyJson) and created the Unix time it was stored. Several
// processes may share a file (WAL, a busy timeout). Thread-safe.

#include "judge/chat.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace rwb::sqlite {
class Connection;
}

namespace rwb::judge {

class JudgeCache {
public:
    // Opens or creates `path`; throws std::runtime_error naming the file.
    explicit JudgeCache(const std::string &path);
    ~JudgeCache();
    JudgeCache(const JudgeCache &) = delete;
    JudgeCache &operator=(const JudgeCache &) = delete;

    // The stored reply, unless it is older than maxAgeSeconds (> 0) or unreadable.
    std::optional<ChatReply> get(const std::string &key, double maxAgeSeconds) const;
    // Stores (or replaces) a reply. A write that fails (a full disk) is not an error of
    // the call it caches: it returns false.
    bool put(const std::string &key, const ChatReply &reply) const;
    // Removes an entry (a reply that could not be read); false when the write failed.
    bool remove(const std::string &key) const;
    // Entries in the file.
    int64_t size() const;
    const std::string &path() const { return m_path; }

private:
    std::string m_path;
    std::unique_ptr<sqlite::Connection> m_db;
    mutable std::mutex m_mutex;
};

} // namespace rwb::judge
