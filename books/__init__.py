"""The pit's books, item 2 of issue #21: the float of a table, shift by shift.

A shift opens with the float counted by denomination and signed by the dealer and a pit boss
(four eyes); fills and credits are requested, approved by a pit boss (not the requester) and
received; chips sold for cash and cash to the drop box are appended as events; the closing count
is compared with the expected float (opening + the rounds' logged float + paid-burn fees − chips sold + fills −
credits). See docs/books.md.
"""
