#pragma once

#include <QMessageBox>
#include <QString>
#include <QWidget>

// A warning that does not block the event loop (training events keep arriving while it is
// shown): the main window's and its action classes' way to tell the user what failed.
inline void showNotice(QWidget *parent, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->open();
}
