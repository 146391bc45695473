import socket, sys, time
mode, portfile = sys.argv[1], sys.argv[2]
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 0
ls = socket.socket(); ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", 0)); ls.listen(8)
open(portfile, "w").write(str(ls.getsockname()[1]))
served = 0
def read_request(c):
    data = b""
    while b"\r\n\r\n" not in data:
        d = c.recv(65536)
        if not d: return None
        data += d
    head, body = data.split(b"\r\n\r\n", 1)
    n = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"): n = int(line.split(b":")[1])
    while len(body) < n:
        d = c.recv(65536)
        if not d: return None
        body += d
    sys.stderr.write(head.split(b"\r\n")[0].decode()[:200] + "\n")
    return head
while True:
    c, _ = ls.accept()
    while True:
        if read_request(c) is None: break
        if mode == "silent":
            time.sleep(3600)
        elif mode == "drip":
            c.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            while True:
                c.sendall(b"1\r\nx\r\n"); time.sleep(0.2)
        elif mode == "endless":
            c.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"%x\r\n" % 65536 + b"0" * 65536 + b"\r\n"
            try:
                while True: c.sendall(chunk)
            except OSError: break
        elif mode == "okthendie":
            served += 1
            if served > limit:
                c.close(); ls.close(); sys.exit(0)
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    c.close()
