#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace rwb::judge {
class JudgeClient;
}
namespace rwb::reward {
class Reward;
}

namespace rwb::widgets {

// The Reward Designer's judge: a reward config's "judge" object, the client made from it
// and the judge rewards made with that client, shared by the Designer (GUI thread) and the
// judge scorer's worker. The client is made on first use, on the worker (a local backend
// loads its model then), and kept: its memory of replies is what lets a weight change or
// an edit of one rubric item re-send nothing but the calls whose request changed.
// Thread-safe; immutable but for what it makes once.
class JudgeSetup {
public:
    // `json`: the judge object's text; `baseDir`: what its relative paths resolve against;
    // `source`: what messages name ("reward config", a file). Parses nothing yet.
    JudgeSetup(std::string json, std::string baseDir, std::string source);
    ~JudgeSetup();
    JudgeSetup(const JudgeSetup &) = delete;
    JudgeSetup &operator=(const JudgeSetup &) = delete;

    const std::string &json() const { return m_json; }
    const std::string &baseDir() const { return m_baseDir; }

    // The client, made on the first call. Throws (data::InputException for bad settings,
    // std::runtime_error for a cache file that cannot be opened or a model that does not
    // load) with a message naming the setting; the next call tries again.
    std::shared_ptr<const judge::JudgeClient> client() const;
    // The judge reward `name` with the component's options (JSON, "" for none), made once
    // per (name, options). Throws std::invalid_argument naming the option, or what
    // client() throws.
    std::shared_ptr<const reward::Reward> reward(const std::string &name, const std::string &options) const;

    // The client's cancelSending() / resumeSending() (nothing before it exists).
    void cancelSending() const;
    void resumeSending() const;

private:
    std::string m_json;
    std::string m_baseDir;
    std::string m_source;
    mutable std::mutex m_mutex;
    mutable std::shared_ptr<const judge::JudgeClient> m_client;
    mutable std::map<std::pair<std::string, std::string>, std::shared_ptr<const reward::Reward>> m_rewards;
};

} // namespace rwb::widgets
