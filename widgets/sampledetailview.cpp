#include "sampledetailview.h"

#include "taskpresenter.h"
#include "rewardhtml.h"
#include "rewardtext.h"

#include <QEvent>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace {

QString esc(const QString &s)
{
    return RewardHtml::escape(s);
}

} // namespace

SampleDetailView::SampleDetailView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("sampleDetail"));
    m_browser->setOpenLinks(false);
    layout->addWidget(m_browser);
    clear();
}

void SampleDetailView::showSample(const Content &content)
{
    m_last = content;
    m_hasContent = true;
    m_browser->setHtml(render(content));
}

void SampleDetailView::clear()
{
    m_hasContent = false;
    m_browser->setHtml(QStringLiteral("<p style=\"color:gray\">%1</p>")
                           .arg(tr("Select a sample to see why each reward component gave what it gave.")));
}

QString SampleDetailView::html() const
{
    return m_browser->toHtml();
}

void SampleDetailView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        if (m_hasContent)
            m_browser->setHtml(render(m_last));
        else
            clear();
    }
    QWidget::changeEvent(event);
}

QString SampleDetailView::render(const Content &c) const
{
    const rwb::task::Record &r = c.record;
    QString h;
    h += QStringLiteral("<h3>%1</h3>").arg(esc(QString::fromStdString(r.example ? r.example->id() : std::string())) +
                                           (r.kind.empty() ? QString() : QStringLiteral(" · ") + esc(QString::fromStdString(r.kind))));
    if (!c.task || !r.example || !c.completion)
        return h;

    // Scores.
    QVector<RewardHtml::ComponentRow> rows;
    for (size_t i = 0; i < c.explanations.size(); ++i) {
        const auto &e = c.explanations[i];
        const QString note = c.notes.value(static_cast<int>(i));
        RewardHtml::ComponentRow row{QString::fromStdString(e.reward), e.value, c.weights.value(static_cast<int>(i)),
                                     note.isEmpty() ? RewardText::explanation(e) : note};
        row.none = note.isEmpty() && rwb::reward::isNone(e.value);
        rows.append(row);
    }
    h += RewardHtml::componentTable(rows, c.total);
    h += rwb::widgets::TaskPresenter::categoryHtml(*c.task, *r.example, *c.completion);

    const rwb::widgets::TaskPresenter &presenter = rwb::widgets::TaskPresenter::forTask(c.task->name());
    h += presenter.componentDetailHtml(c.explanations);
    h += presenter.outcomeHtml(*r.example, *c.completion, c.explanations);
    h += presenter.completionHtml(*r.example, *c.completion, c.thinking);
    h += presenter.inputHtml(*r.example, *c.completion);
    return h;
}
