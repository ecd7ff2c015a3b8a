#include "judge/judgecache.h"

#include "judge/judgeclient.h"
#include "store/statement.h"
#include "store/storeerror.h"

#include <sqlite3.h>

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
    if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        throw std::runtime_error("judge cache " + path + ": cannot open (" + message + ")");
    }
    sqlite3_busy_timeout(m_db, 10000);
    try {
        store::execSql(m_db, path,
                       "PRAGMA journal_mode=WAL;"
                       "CREATE TABLE IF NOT EXISTS judge_cache(key TEXT PRIMARY KEY, reply TEXT NOT NULL, "
                       "created REAL NOT NULL)",
                       "creating the judge cache");
    } catch (const std::exception &e) {
        sqlite3_close(m_db);
        m_db = nullptr;
        throw std::runtime_error(std::string("judge cache: ") + e.what() +
                                 " (is it a SQLite file? give another cache path or --no-cache)");
    }
}

JudgeCache::~JudgeCache()
{
    sqlite3_close(m_db);
}

std::optional<ChatReply> JudgeCache::get(const std::string &key, double maxAgeSeconds) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    try {
        store::Statement q(m_db, "SELECT reply, created FROM judge_cache WHERE key = ?", m_path);
        q.bindText(1, key);
        if (!q.step())
            return std::nullopt;
        if (maxAgeSeconds > 0.0 && unixNow() - q.columnDouble(1) > maxAgeSeconds)
            return std::nullopt;
        return parseChatReply(q.columnText(0));
    } catch (const std::exception &) {
        return std::nullopt; // an unreadable entry is a miss; the fresh reply replaces it
    }
}

bool JudgeCache::put(const std::string &key, const ChatReply &reply) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    try {
        const std::string text = chatReplyJson(reply); // bound without a copy: must outlive run()
        store::Statement q(m_db, "INSERT OR REPLACE INTO judge_cache(key, reply, created) VALUES (?, ?, ?)", m_path);
        q.bindText(1, key);
        q.bindText(2, text);
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
        store::Statement q(m_db, "DELETE FROM judge_cache WHERE key = ?", m_path);
        q.bindText(1, key);
        q.run();
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

int64_t JudgeCache::size() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    store::Statement q(m_db, "SELECT COUNT(*) FROM judge_cache", m_path);
    return q.step() ? q.columnInt(0) : 0;
}

} // namespace rwb::judge
