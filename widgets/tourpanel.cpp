#include "tourpanel.h"

#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace rwb::widgets {

const QString TourPanel::kDontShowAgainKey = QStringLiteral("tour/dontShowAgain");

namespace {

// The object name of highlight()'s frame.
const QString kHighlightName = QStringLiteral("tourHighlight");
// The frame's colour: an orange that stands out on light and dark palettes alike.
const QColor kHighlightColour(255, 140, 0);
// The frame's pen width (pixels).
constexpr int kHighlightPen = 3;

// The coloured frame highlight() lays over a widget: a child of it, on top of its other
// children, that follows its size and lets every mouse event through.
class HighlightFrame : public QWidget {
public:
    explicit HighlightFrame(QWidget *target) : QWidget(target)
    {
        setObjectName(kHighlightName);
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setFocusPolicy(Qt::NoFocus);
        setGeometry(target->rect());
        target->installEventFilter(this);
        raise();
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == parent() && event->type() == QEvent::Resize) {
            setGeometry(parentWidget()->rect());
            raise();
        }
        return false;
    }

    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        QColor fill = kHighlightColour;
        fill.setAlpha(28);
        p.setPen(QPen(kHighlightColour, kHighlightPen));
        p.setBrush(fill);
        const qreal inset = kHighlightPen / 2.0 + 0.5;
        p.drawRoundedRect(QRectF(rect()).adjusted(inset, inset, -inset, -inset), 4, 4);
    }
};

} // namespace

TourPanel::TourPanel(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("tourPanel"));
    setFrameShape(QFrame::StyledPanel);
    // A tint of the highlight colour sets the tour apart from the views below it.
    setAutoFillBackground(true);
    QPalette tinted = palette();
    const QColor window = tinted.color(QPalette::Window);
    const QColor highlight = tinted.color(QPalette::Highlight);
    tinted.setColor(QPalette::Window, QColor((window.red() * 7 + highlight.red()) / 8,
                                             (window.green() * 7 + highlight.green()) / 8,
                                             (window.blue() * 7 + highlight.blue()) / 8));
    setPalette(tinted);
    // As tall as its text needs, never more: the views below keep the rest.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    m_progress = new QLabel(this);
    m_progress->setObjectName(QStringLiteral("tourProgress"));
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("tourTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("tourText"));
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true);
    m_text->setMinimumWidth(120); // wraps into more lines rather than holding the window wide
    m_showMe = new QPushButton(this);
    m_showMe->setObjectName(QStringLiteral("tourShowMe"));
    m_showMe->setDefault(true);
    m_back = new QPushButton(this);
    m_back->setObjectName(QStringLiteral("tourBack"));
    m_next = new QPushButton(this);
    m_next->setObjectName(QStringLiteral("tourNext"));
    m_dontShow = new QCheckBox(this);
    m_dontShow->setObjectName(QStringLiteral("tourDontShowAgain"));
    m_dontShow->setChecked(isDismissed());
    m_close = new QToolButton(this);
    m_close->setObjectName(QStringLiteral("tourClose"));
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(10, 6, 6, 8);
    layout->setHorizontalSpacing(8);
    layout->setVerticalSpacing(4);
    auto *head = new QHBoxLayout;
    head->addWidget(m_progress);
    head->addSpacing(6);
    head->addWidget(m_title, 1);
    head->addWidget(m_dontShow);
    head->addWidget(m_close);
    layout->addLayout(head, 0, 0, 1, 2);
    layout->addWidget(m_text, 1, 0, Qt::AlignTop);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_showMe);
    buttons->addSpacing(6);
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    layout->addLayout(buttons, 1, 1, Qt::AlignTop | Qt::AlignRight);
    layout->setColumnStretch(0, 1);

    connect(m_showMe, &QPushButton::clicked, this, &TourPanel::showMe);
    connect(m_back, &QPushButton::clicked, this, &TourPanel::back);
    connect(m_next, &QPushButton::clicked, this, &TourPanel::next);
    connect(m_close, &QToolButton::clicked, this, &TourPanel::closeTour);
    connect(m_dontShow, &QCheckBox::toggled, this,
            [](bool checked) { QSettings().setValue(kDontShowAgainKey, checked); });

    retranslate();
    updateStep();
    hide(); // until start()
}

void TourPanel::setSteps(QList<TourStep> steps)
{
    const QString id = currentId();
    m_steps = std::move(steps);
    m_current = 0;
    for (int i = 0; i < count(); ++i)
        if (m_steps[i].id == id)
            m_current = i;
    updateStep();
}

QString TourPanel::currentId() const
{
    return m_current < count() ? m_steps[m_current].id : QString();
}

void TourPanel::setCurrentIndex(int index)
{
    index = std::clamp(index, 0, std::max(0, count() - 1));
    if (index == m_current)
        return;
    m_current = index;
    updateStep();
    Q_EMIT currentChanged(m_current);
}

void TourPanel::start()
{
    setCurrentIndex(0);
    m_dontShow->setChecked(isDismissed());
    show();
}

bool TourPanel::startUnlessDismissed()
{
    if (isDismissed())
        return false;
    start();
    return true;
}

bool TourPanel::isDismissed()
{
    return QSettings().value(kDontShowAgainKey, false).toBool();
}

void TourPanel::next()
{
    if (m_current + 1 >= count())
        closeTour();
    else
        setCurrentIndex(m_current + 1);
}

void TourPanel::back()
{
    setCurrentIndex(m_current - 1);
}

void TourPanel::showMe()
{
    if (m_current < count() && m_steps[m_current].show)
        m_steps[m_current].show();
}

void TourPanel::closeTour()
{
    hide();
    Q_EMIT closed();
}

void TourPanel::highlight(QWidget *target, int ms)
{
    if (!target)
        return;
    // Again on the same widget: the old frame goes, the new one gets the whole time.
    for (QWidget *old : target->findChildren<QWidget *>(kHighlightName, Qt::FindDirectChildrenOnly))
        delete old;
    QPointer<QWidget> frame = new HighlightFrame(target);
    frame->show();
    QTimer::singleShot(ms, frame, [frame] {
        if (frame)
            frame->deleteLater();
    });
}

void TourPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QFrame::changeEvent(event);
}

void TourPanel::showEvent(QShowEvent *event)
{
    // Another window (or an earlier tour) may have changed the setting.
    m_dontShow->setChecked(isDismissed());
    QFrame::showEvent(event);
}

void TourPanel::retranslate()
{
    m_showMe->setText(tr("Show me"));
    m_showMe->setToolTip(tr("Bring this part of the window to the front and outline it"));
    m_back->setText(tr("Back"));
    m_dontShow->setText(tr("Don't show again"));
    m_dontShow->setToolTip(tr("Do not open the tour at start; Help ▸ Guided tour still opens it"));
    m_close->setToolTip(tr("Close the tour (Help ▸ Guided tour opens it again)"));
    updateStep();
}

void TourPanel::updateStep()
{
    const bool any = count() > 0;
    const TourStep *step = any ? &m_steps[m_current] : nullptr;
    m_progress->setText(tr("Guided tour %1 / %2").arg(any ? m_current + 1 : 0).arg(count()));
    m_title->setText(step ? step->title : QString());
    m_text->setText(step ? step->text : QString());
    m_showMe->setVisible(step && step->show);
    m_back->setEnabled(m_current > 0);
    m_next->setEnabled(any);
    m_next->setText(any && m_current + 1 >= count() ? tr("Finish") : tr("Next"));
}

} // namespace rwb::widgets
