#include "judgesetup.h"

#include "judge/judgeclient.h"
#include "judge/judgeconfig.h"
#include "reward/registry.h"
#include "task/catalog.h"

namespace rwb::widgets {

JudgeSetup::JudgeSetup(std::string json, std::string baseDir, std::string source)
    : m_json(std::move(json)), m_baseDir(std::move(baseDir)), m_source(std::move(source))
{
}

JudgeSetup::~JudgeSetup() = default;

std::shared_ptr<const judge::JudgeClient> JudgeSetup::client() const
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_client)
            return m_client;
    }
    // Made outside the lock: loading a local model takes a while, and cancelSending()
    // from the GUI thread must not wait for it.
    auto made = std::make_shared<const judge::JudgeClient>(judge::parseJudgeOptions(m_json, m_source, m_baseDir));
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_client)
        m_client = std::move(made);
    return m_client;
}

std::shared_ptr<const reward::Reward> JudgeSetup::reward(const std::string &name, const std::string &options) const
{
    const std::shared_ptr<const judge::JudgeClient> c = client();
    std::lock_guard<std::mutex> lock(m_mutex);
    auto &slot = m_rewards[{name, options}];
    if (!slot) {
        reward::RewardOptions o;
        o.judge = c;
        o.componentOptions = options;
        o.baseDir = m_baseDir;
        slot = task::Catalog::builtin().rewards().create(name, o);
    }
    return slot;
}

void JudgeSetup::cancelSending() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_client)
        m_client->cancelSending();
}

void JudgeSetup::resumeSending() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_client)
        m_client->resumeSending();
}

} // namespace rwb::widgets
