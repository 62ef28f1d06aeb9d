package io.periscope.dns;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A DNS client for tests, written from RFC 1035 independently of netty, so that the server's wire
 * format is checked by a second implementation: queries as bytes, responses parsed with name
 * decompression.
 */
final class WireClient {

    static final int A = 1;
    static final int SOA = 6;
    static final int AAAA = 28;
    static final int SRV = 33;
    static final int OPT = 41;

    private final InetSocketAddress server;

    WireClient(InetSocketAddress server) {
        this.server = server;
    }

    /** A parsed record: owner, type, TTL, and its data as text (an address, "prio weight port target", or the SOA's names). */
    record Rr(String name, int type, long ttl, int dnsClass, String data) {
    }

    record Response(int id, boolean authoritative, boolean truncated, int rcode, List<Rr> answers, List<Rr> authority,
                    List<Rr> additionals, int size) {
        List<String> data(int type) {
            return answers.stream().filter(r -> r.type() == type).map(Rr::data).toList();
        }
    }

    static byte[] query(int id, String name, int type, Optional<Integer> ednsPayload) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeShort(id);
            out.writeShort(0x0100); // RD
            out.writeShort(1);
            out.writeShort(0);
            out.writeShort(0);
            out.writeShort(ednsPayload.isPresent() ? 1 : 0);
            for (String label : name.split("\\.")) {
                byte[] l = label.getBytes(StandardCharsets.US_ASCII);
                out.writeByte(l.length);
                out.write(l);
            }
            out.writeByte(0);
            out.writeShort(type);
            out.writeShort(1);
            if (ednsPayload.isPresent()) {
                out.writeByte(0);
                out.writeShort(OPT);
                out.writeShort(ednsPayload.get());
                out.writeInt(0);
                out.writeShort(0);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    Response udp(byte[] query) throws IOException {
        return udpRaw(query).map(WireClient::parse).orElseThrow(() -> new SocketTimeoutException("no answer over UDP"));
    }

    /** Sends one datagram and waits up to a second for a reply; empty when none came. */
    Optional<byte[]> udpRaw(byte[] query) throws IOException {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            socket.setSoTimeout(1000);
            socket.send(new DatagramPacket(query, query.length, server));
            byte[] buffer = new byte[65535];
            DatagramPacket reply = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(reply);
            } catch (SocketTimeoutException e) {
                return Optional.empty();
            }
            return Optional.of(java.util.Arrays.copyOf(buffer, reply.getLength()));
        }
    }

    Response tcp(byte[] query) throws IOException {
        try (Socket socket = new Socket(server.getAddress(), server.getPort())) {
            socket.setSoTimeout(2000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeShort(query.length);
            out.write(query);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] reply = new byte[in.readUnsignedShort()];
            in.readFully(reply);
            return parse(reply);
        }
    }

    static Response parse(byte[] message) {
        ByteBuffer in = ByteBuffer.wrap(message);
        int id = in.getShort() & 0xffff;
        int flags = in.getShort() & 0xffff;
        int qd = in.getShort() & 0xffff;
        int an = in.getShort() & 0xffff;
        int ns = in.getShort() & 0xffff;
        int ar = in.getShort() & 0xffff;
        if ((flags & 0x8000) == 0) {
            throw new IllegalStateException("not a response");
        }
        for (int i = 0; i < qd; i++) {
            name(message, in);
            in.getInt();
        }
        List<Rr> answers = records(message, in, an);
        List<Rr> authority = records(message, in, ns);
        List<Rr> additionals = records(message, in, ar);
        if (in.hasRemaining()) {
            throw new IllegalStateException(in.remaining() + " bytes after the last record");
        }
        return new Response(id, (flags & 0x0400) != 0, (flags & 0x0200) != 0, flags & 0xf, answers, authority, additionals, message.length);
    }

    private static List<Rr> records(byte[] message, ByteBuffer in, int count) {
        List<Rr> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = name(message, in);
            int type = in.getShort() & 0xffff;
            int dnsClass = in.getShort() & 0xffff;
            long ttl = in.getInt() & 0xffffffffL;
            int length = in.getShort() & 0xffff;
            int end = in.position() + length;
            String data = switch (type) {
                case A -> (in.get() & 0xff) + "." + (in.get() & 0xff) + "." + (in.get() & 0xff) + "." + (in.get() & 0xff);
                case SRV -> (in.getShort() & 0xffff) + " " + (in.getShort() & 0xffff) + " " + (in.getShort() & 0xffff) + " " + name(message, in);
                case SOA -> name(message, in) + " " + name(message, in);
                default -> "";
            };
            in.position(end);
            records.add(new Rr(name, type, ttl, dnsClass, data));
        }
        return records;
    }

    private static String name(byte[] message, ByteBuffer in) {
        StringBuilder name = new StringBuilder();
        int position = in.position();
        boolean jumped = false;
        for (int hops = 0; hops < 64; hops++) {
            int length = message[position] & 0xff;
            if ((length & 0xc0) == 0xc0) {
                int target = ((length & 0x3f) << 8) | (message[position + 1] & 0xff);
                if (!jumped) {
                    in.position(position + 2);
                }
                jumped = true;
                position = target;
                continue;
            }
            if (length == 0) {
                if (!jumped) {
                    in.position(position + 1);
                }
                return name.isEmpty() ? "." : name.toString();
            }
            name.append(new String(message, position + 1, length, StandardCharsets.US_ASCII)).append('.');
            position += 1 + length;
        }
        throw new IllegalStateException("name with too many compression pointers");
    }
}
