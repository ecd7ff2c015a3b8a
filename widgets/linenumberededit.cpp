#include "linenumberededit.h"

#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>

#include <algorithm>

namespace {

// The gutter: it paints nothing itself, the editor paints it (it knows the blocks).
class Gutter : public QWidget {
public:
    explicit Gutter(LineNumberedEdit *editor) : QWidget(editor), m_editor(editor) {}
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }

private:
    LineNumberedEdit *m_editor;
};

// The marked line's tint, and the gutter's padding each side of the numbers (pixels).
const QColor kMarkColour(0xfd, 0xe0, 0xe0);
constexpr int kGutterPadding = 4;

} // namespace

LineNumberedEdit::LineNumberedEdit(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
{
    connect(this, &QPlainTextEdit::blockCountChanged, this, &LineNumberedEdit::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &LineNumberedEdit::updateGutter);
    updateGutterWidth();
}

int LineNumberedEdit::gutterWidth() const
{
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10)
        ++digits;
    digits = std::max(digits, 2);
    return 2 * kGutterPadding + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void LineNumberedEdit::setMarkedLine(int line)
{
    if (line == m_markedLine)
        return;
    m_markedLine = line;
    updateMark();
    m_gutter->update();
}

void LineNumberedEdit::updateMark()
{
    QList<QTextEdit::ExtraSelection> selections;
    const QTextBlock block = m_markedLine > 0 ? document()->findBlockByNumber(m_markedLine - 1) : QTextBlock();
    if (block.isValid()) {
        QTextEdit::ExtraSelection mark;
        mark.format.setBackground(kMarkColour);
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.cursor = QTextCursor(block);
        selections << mark;
    }
    setExtraSelections(selections);
}

void LineNumberedEdit::updateGutterWidth()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
    updateMark(); // a line added or removed above moves the marked one
}

void LineNumberedEdit::updateGutter(const QRect &rect, int dy)
{
    if (dy != 0)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void LineNumberedEdit::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

void LineNumberedEdit::paintGutter(QPaintEvent *event)
{
    QPainter p(m_gutter);
    p.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    p.setFont(font());
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int height = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        if (block.isVisible() && bottom >= event->rect().top()) {
            const int number = block.blockNumber() + 1;
            p.setPen(number == m_markedLine ? QColor(0xc6, 0x28, 0x28) : palette().color(QPalette::PlaceholderText));
            p.drawText(0, top, m_gutter->width() - kGutterPadding, height, Qt::AlignRight, QString::number(number));
        }
        block = block.next();
        top = bottom;
    }
}
