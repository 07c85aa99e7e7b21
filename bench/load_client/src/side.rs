//! One side's websocket: opened with the player's cookie, read until the run closes, its
//! messages handed to the `Game` and the moves it plans sent (after their think time, while
//! reading goes on).

use crate::game::{Game, Reaction};
use crate::protocol::MoveMessage;
use crate::run::{Phase, Run};
use futures_util::{SinkExt, StreamExt};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio::time::{sleep_until, timeout};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header::{HeaderValue, COOKIE};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async_with_config, MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// As load.py's Python client: a slow handshake under load is not a failure, a stuck close is.
const OPEN_TIMEOUT: Duration = Duration::from_secs(120);
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

/// A move waiting for its think time.
struct Pending {
    ply: usize,
    mv: String,
    at: Instant,
}

pub async fn play_side(
    run: Rc<Run>,
    game: Rc<RefCell<Game>>,
    k: usize,
    url: String,
    cookie: String,
) {
    // the slot is held until the initial state arrives, as load.py's Python client does
    let mut slot = Some(run.connect_slots.acquire().await);
    match open(&url, &cookie).await {
        Ok(mut ws) => {
            if read(&run, &game, k, &mut ws, &mut slot).await {
                let _ = timeout(CLOSE_TIMEOUT, close(&mut ws)).await;
            }
        }
        Err(e) => game.borrow_mut().error(k, &e),
    }
    if slot.is_some() {
        run.side_connected(false);
    }
    if game.borrow_mut().connection_ended(k) {
        run.game_finished();
    }
}

async fn open(url: &str, cookie: &str) -> Result<Socket, String> {
    let mut request = url
        .into_client_request()
        .map_err(|e| format!("request: {e}"))?;
    let value =
        HeaderValue::from_str(&format!("sc_guest={cookie}")).map_err(|e| format!("cookie: {e}"))?;
    request.headers_mut().insert(COOKIE, value);
    // no extensions offered (no permessage-deflate: the server declines it); TCP_NODELAY as asyncio
    match timeout(OPEN_TIMEOUT, connect_async_with_config(request, None, true)).await {
        Ok(Ok((ws, _))) => Ok(ws),
        Ok(Err(e)) => Err(format!("connect: {e}")),
        Err(_) => Err("connect: timed out".into()),
    }
}

/// Reads until the connection ends (false) or the run closes (true), playing as the game says.
async fn read<T>(
    run: &Run,
    game: &RefCell<Game>,
    k: usize,
    ws: &mut Socket,
    slot: &mut Option<T>,
) -> bool {
    let mut phase = run.phase.clone();
    let mut started = false;
    let mut pending: Option<Pending> = None;
    loop {
        let reaction = tokio::select! {
            msg = ws.next() => match msg {
                Some(Ok(Message::Text(text))) => game.borrow_mut().on_message(k, &text, Instant::now(), started),
                Some(Ok(Message::Binary(_))) => {
                    game.borrow_mut().error(k, "unexpected binary message");
                    continue;
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
                Some(Ok(Message::Close(_))) | None => return false,
                Some(Err(e)) => {
                    game.borrow_mut().error(k, &format!("websocket: {e}"));
                    return false;
                }
            },
            changed = phase.changed() => {
                if changed.is_err() {
                    return false;
                }
                let now = *phase.borrow_and_update();
                match now {
                    Phase::Connect => continue,
                    Phase::Play => {
                        started = true;
                        game.borrow_mut().on_go(k)
                    }
                    Phase::Close => return true,
                }
            },
            () = sleep_until(pending.as_ref().map_or_else(Instant::now, |p| p.at).into()), if pending.is_some() => {
                if let Some(p) = pending.take() {
                    send(game, k, ws, p.ply, &p.mv).await;
                }
                continue;
            },
        };
        let Reaction {
            initial,
            play,
            game_over,
            stop,
        } = reaction;
        if initial && slot.take().is_some() {
            run.side_connected(true);
        }
        if game_over {
            run.game_finished();
        }
        if stop {
            return false;
        }
        if let Some(p) = play {
            match p.delay {
                Some(delay) => {
                    pending = Some(Pending {
                        ply: p.ply,
                        mv: p.mv,
                        at: Instant::now() + delay,
                    })
                }
                None => send(game, k, ws, p.ply, &p.mv).await,
            }
        }
    }
}

async fn send(game: &RefCell<Game>, k: usize, ws: &mut Socket, ply: usize, mv: &str) {
    game.borrow_mut().mark_sent(ply, Instant::now());
    let text =
        serde_json::to_string(&MoveMessage { kind: "move", mv }).expect("a string serialises");
    if let Err(e) = ws.send(Message::text(text)).await {
        game.borrow_mut().error(k, &format!("sending {mv}: {e}"));
    }
}

/// The close handshake: a close frame, then read until the server's.
async fn close(ws: &mut Socket) {
    if ws.close(None).await.is_ok() {
        while let Some(Ok(_)) = ws.next().await {}
    }
}
