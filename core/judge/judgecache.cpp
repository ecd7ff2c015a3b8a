#include "judge/judgecache.h"

#include "judge/judgeclient.h"
#include "llm/chatjson.h"
#include "sqlite/connection.h"
#include "sqlite/statement.h"

#include <chrono>
#include <stdexcept>

namespace rwb::judge {

namespace {

double unixNow()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

} // namespace

JudgeCache::JudgeCache(const std::string &path) : m_path(path)
{
    sqlite::Connection::Options options;
    options.busyTimeoutMs = 10000;
    options.shared = true; // one client's threads share it (under m_mutex)
    try {
        m_db = std::make_unique<sqlite::Connection>(path, sqlite::Connection::Mode::Create, options);
    } catch (const std::exception &e) {
        throw std::runtime_error(std::string("judge cache: ") + e.what());
    }
    try {
        m_db->exec("PRAGMA journal_mode=WAL;"
                   "CREATE TABLE IF NOT EXISTS judge_cache(key TEXT PRIMARY KEY, reply TEXT NOT NULL, "
                   "created REAL NOT NULL)",
                   "creating the judge cache");
    } catch (const std::exception &e) {
        m_db.reset();
        throw std::runtime_error(std::string("judge cache: ") + e.what() +
                                 " (is it a SQLite file? give another cache path or --no-cache)");
    }
}

JudgeCache::~JudgeCache() = default;

std::optional<ChatReply> JudgeCache::get(const std::string &key, double maxAgeSeconds) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    try {
        sqlite::Statement q(*m_db, "SELECT reply, created FROM judge_cache WHERE key = ?");
        q.bindTextCopy(1, key);
        if (!q.step())
            return std::nullopt;
        if (maxAgeSeconds > 0.0 && unixNow() - q.columnDouble(1) > maxAgeSeconds)
            return std::nullopt;
        return llm::parseChatReply(q.columnText(0));
    } catch (const std::exception &) {
        return std::nullopt; // an unreadable entry is a miss; the fresh reply replaces it
    }
}

bool JudgeCache::put(const std::string &key, const ChatReply &reply) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    try {
        const std::string text = llm::chatReplyJson(reply);
        sqlite::Statement q(*m_db, "INSERT OR REPLACE INTO judge_cache(key, reply, created) VALUES (?, ?, ?)");
        q.bindTextCopy(1, key);
        q.bindTextCopy(2, text);
        q.bind(3, unixNow());
        q.run();
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

bool JudgeCache::remove(const std::string &key) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    try {
        sqlite::Statement q(*m_db, "DELETE FROM judge_cache WHERE key = ?");
        q.bindTextCopy(1, key);
        q.run();
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

int64_t JudgeCache::size() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    sqlite::Statement q(*m_db, "SELECT COUNT(*) FROM judge_cache");
    return q.step() ? q.columnInt(0) : 0;
}

} // namespace rwb::judge
