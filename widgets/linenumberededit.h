#pragma once

#include <QPlainTextEdit>

// A plain-text editor for files that messages point into by line ("file:5: column 3"):
// a gutter with each line's number (a wrapped line keeps one number), and one line that
// can be marked (the line a message names). GUI thread only.
class LineNumberedEdit : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit LineNumberedEdit(QWidget *parent = nullptr);

    // Marks line `line` (1-based) with a tinted background; 0 clears the mark.
    void setMarkedLine(int line);
    int markedLine() const { return m_markedLine; }

    // The gutter's width for the current line count, and its painting (the gutter widget's).
    int gutterWidth() const;
    void paintGutter(QPaintEvent *event);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateGutterWidth();
    void updateGutter(const QRect &rect, int dy);
    void updateMark();

    QWidget *m_gutter;
    int m_markedLine = 0;
};
