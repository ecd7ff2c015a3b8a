#include "task/rubricoverride.h"

#include <stdexcept>

namespace rwb::task {

RubricOverrideExample::RubricOverrideExample(std::shared_ptr<const Example> original,
                                             std::shared_ptr<const judge::Rubric> rubric)
    : m_original(std::move(original)), m_rubric(std::move(rubric))
{
    if (!m_original || !m_rubric)
        throw std::invalid_argument("a rubric override needs an example and a rubric");
    m_judged = dynamic_cast<const JudgedExample *>(m_original.get());
    if (!m_judged)
        throw std::invalid_argument("example " + m_original->id() + " cannot be judged (its task gives a judge nothing)");
}

} // namespace rwb::task
