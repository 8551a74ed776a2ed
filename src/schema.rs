// @generated in the shape `diesel print-schema` writes; regenerate after changing migrations.
//! Table definitions shared by the SQLite and PostgreSQL backends.

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        token_hash -> Text,
        label -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    challenges (id) {
        id -> BigInt,
        creator_id -> BigInt,
        opponent_id -> Nullable<BigInt>,
        kind -> Text,
        share_token -> Text,
        variant -> Text,
        variant_options -> Text,
        color -> Text,
        time_control -> Text,
        days_per_move -> Nullable<Integer>,
        increment_seconds -> Nullable<Integer>,
        cap_seconds -> Nullable<Integer>,
        rated -> Bool,
        status -> Text,
        game_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        initial_seconds -> Nullable<Integer>,
        auto_flag -> Bool,
        is_public -> Bool,
    }
}

diesel::table! {
    conditional_moves (id) {
        id -> BigInt,
        game_id -> BigInt,
        user_id -> BigInt,
        base_ply -> Integer,
        lines -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    email_preferences (id) {
        id -> BigInt,
        user_id -> BigInt,
        kind -> Text,
        mode -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    game_messages (id) {
        id -> BigInt,
        game_id -> BigInt,
        user_id -> BigInt,
        ply -> Integer,
        kind -> Text,
        body -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    game_tags (id) {
        id -> BigInt,
        user_id -> BigInt,
        game_id -> BigInt,
        tag -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    game_players (id) {
        id -> BigInt,
        game_id -> BigInt,
        user_id -> BigInt,
        board -> Integer,
        color -> Text,
        time_left_seconds -> Nullable<BigInt>,
        secret_state -> Nullable<Text>,
    }
}

diesel::table! {
    games (id) {
        id -> BigInt,
        variant -> Text,
        variant_options -> Text,
        initial_fen -> Text,
        fen -> Text,
        ply -> Integer,
        turn -> Text,
        status -> Text,
        result -> Text,
        termination -> Nullable<Text>,
        time_control -> Text,
        days_per_move -> Nullable<Integer>,
        increment_seconds -> Nullable<Integer>,
        cap_seconds -> Nullable<Integer>,
        deadline_at -> Nullable<Timestamp>,
        rated -> Bool,
        is_public -> Bool,
        draw_offer -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        last_move_at -> Nullable<Timestamp>,
        finished_at -> Nullable<Timestamp>,
        initial_seconds -> Nullable<Integer>,
        auto_flag -> Bool,
    }
}

diesel::table! {
    leaves (id) {
        id -> BigInt,
        user_id -> BigInt,
        starts_at -> Timestamp,
        ends_at -> Timestamp,
        created_at -> Timestamp,
    }
}

diesel::table! {
    login_attempts (id) {
        id -> BigInt,
        throttle_key -> Text,
        attempted_at -> Timestamp,
    }
}

diesel::table! {
    moves (id) {
        id -> BigInt,
        game_id -> BigInt,
        board -> Integer,
        ply -> Integer,
        uci -> Text,
        san -> Text,
        fen_after -> Text,
        player_id -> Nullable<BigInt>,
        comment -> Nullable<Text>,
        played_at -> Timestamp,
    }
}

diesel::table! {
    outbox (id) {
        id -> BigInt,
        kind -> Text,
        user_id -> BigInt,
        game_id -> Nullable<BigInt>,
        dedup_key -> Text,
        payload -> Text,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
        message_id -> Nullable<Text>,
    }
}

diesel::table! {
    rating_history (id) {
        id -> BigInt,
        user_id -> BigInt,
        variant -> Text,
        game_id -> BigInt,
        opponent_id -> BigInt,
        score -> Double,
        rating_before -> Double,
        deviation_before -> Double,
        rating_after -> Double,
        deviation_after -> Double,
        volatility_after -> Double,
        created_at -> Timestamp,
    }
}

diesel::table! {
    ratings (id) {
        id -> BigInt,
        user_id -> BigInt,
        variant -> Text,
        rating -> Double,
        deviation -> Double,
        volatility -> Double,
        games -> Integer,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    users (id) {
        id -> BigInt,
        username -> Text,
        username_key -> Text,
        email -> Text,
        email_verified_at -> Nullable<Timestamp>,
        password_hash -> Text,
        time_zone -> Text,
        created_at -> Timestamp,
        digest_hour -> Integer,
    }
}

diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(email_preferences -> users (user_id));
diesel::joinable!(game_messages -> games (game_id));
diesel::joinable!(game_messages -> users (user_id));
diesel::joinable!(game_players -> games (game_id));
diesel::joinable!(game_players -> users (user_id));
diesel::joinable!(game_tags -> games (game_id));
diesel::joinable!(game_tags -> users (user_id));
diesel::joinable!(moves -> games (game_id));
diesel::joinable!(outbox -> games (game_id));
diesel::joinable!(outbox -> users (user_id));
diesel::joinable!(rating_history -> games (game_id));
diesel::joinable!(ratings -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    api_tokens,
    challenges,
    conditional_moves,
    email_preferences,
    game_messages,
    game_players,
    game_tags,
    games,
    leaves,
    login_attempts,
    moves,
    outbox,
    rating_history,
    ratings,
    users,
);
