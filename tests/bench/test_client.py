"""The API benchmark's load generator (bench.api.RawConnection): a minimal HTTP/1.1 client,
checked against a stub server that answers with a Content-Length, in chunks, or closes."""

import socket
import threading

from bench.api import RawConnection

ANSWERS = [
    b'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"id": 12}\n',
    b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\n3\r\n: 1\r\n1\r\n}\r\n0\r\n\r\n',
    b"HTTP/1.1 409 Conflict\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
]


def _stub_server(answers: list[bytes], seen: list[bytes]):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve():
        pending = list(answers)
        while pending:
            conn, _ = listener.accept()
            with conn:
                while pending:
                    request = b""
                    while b"\r\n\r\n" not in request:
                        request += conn.recv(65536)
                    head, body = request.split(b"\r\n\r\n", 1)
                    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                    while len(body) < length:
                        body += conn.recv(65536)
                    seen.append(body)
                    answer = pending.pop(0)
                    for k in range(0, len(answer), 7):  # in small pieces, as a slow network would
                        conn.sendall(answer[k : k + 7])
                    if b"Connection: close" in answer:
                        break
        listener.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener.getsockname()[1], thread


def test_raw_client_reads_whole_answers_and_reconnects_after_close():
    seen: list[bytes] = []
    port, thread = _stub_server(ANSWERS, seen)
    conn = RawConnection(port)
    head = b"POST /api/v1/rounds/ HTTP/1.1\r\nHost: x\r\nContent-Length: "
    statuses = [conn.exchange(head + str(len(b)).encode() + b"\r\n\r\n" + b) for b in (b"{1}", b"{22}", b"{3}", b"4")]
    conn.close()
    thread.join(5)
    assert statuses == [201, 200, 409, 400]
    assert seen == [b"{1}", b"{22}", b"{3}", b"4"]
